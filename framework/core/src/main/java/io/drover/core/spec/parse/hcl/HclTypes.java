package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code variable} block's type constraint ({@code string}, {@code number}, {@code bool}, {@code any},
 * {@code list(T)}, {@code set(T)}, {@code map(T)}, {@code object({k = T})}, {@code tuple([T...])}) and HCL2's
 * conversion of a value to it. Pure.
 */
sealed interface HclTypes {
    record Prim(String name) implements HclTypes {}

    record Coll(String kind, HclTypes elem) implements HclTypes {}

    record Obj(Map<String, HclTypes> attrs) implements HclTypes {}

    record Tup(List<HclTypes> elems) implements HclTypes {}

    HclTypes ANY = new Prim("any");

    /** Reads a type expression. */
    static HclTypes parse(HclExpr e) throws HclSyntaxException {
        if (e instanceof HclExpr.Ref r && List.of("string", "number", "bool", "any").contains(r.name())) {
            return new Prim(r.name());
        }
        if (e instanceof HclExpr.Call c && List.of("list", "set", "map").contains(c.name()) && c.args().size() == 1) {
            return new Coll(c.name(), parse(c.args().get(0)));
        }
        if (e instanceof HclExpr.Call c && c.name().equals("object") && c.args().size() == 1) {
            Map<String, HclTypes> attrs = new LinkedHashMap<>();
            HclExpr arg = c.args().get(0);
            if (arg instanceof HclExpr.ObjectCons o) {
                for (int i = 0; i < o.keys().size(); i++) {
                    if (!(o.keys().get(i) instanceof HclExpr.Literal k) || !(k.value() instanceof HclValue.Str s)) {
                        throw new HclSyntaxException(o.line(), o.col(), "object type keys must be names");
                    }
                    attrs.put(s.value(), parse(o.values().get(i)));
                }
                return new Obj(attrs);
            }
            if (arg instanceof HclExpr.Literal l && l.value() instanceof HclValue.ObjectValue ov && ov.entries().isEmpty()) {
                return new Obj(attrs);
            }
        }
        if (e instanceof HclExpr.Call c && c.name().equals("tuple") && c.args().size() == 1
                && c.args().get(0) instanceof HclExpr.Tuple t) {
            List<HclTypes> elems = new ArrayList<>();
            for (HclExpr x : t.items()) {
                elems.add(parse(x));
            }
            return new Tup(elems);
        }
        throw new HclSyntaxException(e.line(), e.col(), "not a type (use string, number, bool, any, list(T), set(T), "
                + "map(T), object({...}) or tuple([...]))");
    }

    static String show(HclTypes t) {
        if (t instanceof Prim p) {
            return p.name();
        } else if (t instanceof Coll c) {
            return c.kind() + "(" + show(c.elem()) + ")";
        } else if (t instanceof Obj o) {
            return "object";
        }
        return "tuple";
    }

    /** The value converted to the type as HCL2 converts ("5" to a number, 5 to a string), or why not. */
    static Object convert(Object v, HclTypes t) throws ValueException {
        if (v == null || t instanceof Prim p && p.name().equals("any")) {
            return v;
        }
        if (t instanceof Prim p) {
            return switch (p.name()) {
                case "string" -> {
                    if (v instanceof List || v instanceof Map) {
                        throw new ValueException("a string is required, found a " + HclValues.typeName(v));
                    }
                    yield HclValues.str(v);
                }
                case "number" -> HclValues.num(v);
                default -> HclValues.bool(v);
            };
        }
        if (t instanceof Coll c && !c.kind().equals("map")) {
            if (!(v instanceof List<?> l)) {
                throw new ValueException("a " + show(t) + " is required, found a " + HclValues.typeName(v));
            }
            List<Object> out = new ArrayList<>();
            for (Object x : l) {
                Object cx = convert(x, c.elem());
                if (!c.kind().equals("set") || out.stream().noneMatch(o -> HclValues.equal(o, cx))) {
                    out.add(cx);
                }
            }
            return HclValues.listOf(out);
        }
        if (t instanceof Tup tup) {
            List<Object> l = HclValues.list(v);
            if (l.size() != tup.elems().size()) {
                throw new ValueException("a tuple of " + tup.elems().size() + " elements is required, found " + l.size());
            }
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(convert(l.get(i), tup.elems().get(i)));
            }
            return HclValues.listOf(out);
        }
        if (!(v instanceof Map<?, ?>)) {
            throw new ValueException("a " + show(t) + " is required, found a " + HclValues.typeName(v));
        }
        Map<String, Object> m = HclValues.map(v);
        Map<String, Object> out = new LinkedHashMap<>();
        if (t instanceof Coll c) {
            for (Map.Entry<String, Object> e : m.entrySet()) {
                out.put(e.getKey(), convert(e.getValue(), c.elem()));
            }
            return HclValues.sortedMap(out);
        }
        Obj o = (Obj) t;
        for (Map.Entry<String, HclTypes> e : o.attrs().entrySet()) {
            if (!m.containsKey(e.getKey())) {
                throw new ValueException("attribute \"" + e.getKey() + "\" is required");
            }
            out.put(e.getKey(), convert(m.get(e.getKey()), e.getValue()));
        }
        return HclValues.sortedMap(out);
    }
}
