package io.drover.core.spec.parse.hcl;

import static io.drover.core.spec.parse.hcl.HclValues.integer;
import static io.drover.core.spec.parse.hcl.HclValues.list;
import static io.drover.core.spec.parse.hcl.HclValues.map;
import static io.drover.core.spec.parse.hcl.HclValues.num;
import static io.drover.core.spec.parse.hcl.HclValues.str;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collection and number functions of the jobspec ({@link HclFunctions}). Pure. */
final class HclCollectionFunctions {
    /** Most elements {@code range()} may build: a job file must not exhaust the parser's heap. */
    static final int MAX_RANGE = 100_000;

    private HclCollectionFunctions() {}

    static void register(HclFunctions f) {
        f.add("chunklist", 2, 2, a -> {
            List<Object> l = list(a.get(0));
            long size = integer(a.get(1));
            if (size < 0) {
                throw new ValueException("the chunk size must not be negative");
            }
            List<Object> out = new ArrayList<>();
            if (size == 0) {
                out.add(l);
            } else {
                for (int i = 0; i < l.size(); i += (int) size) {
                    out.add(HclValues.listOf(l.subList(i, (int) Math.min(l.size(), i + size))));
                }
            }
            return HclValues.listOf(out);
        });
        f.add("coalesce", 1, -1, a -> {
            for (Object x : a) {
                if (x != null && !"".equals(x)) {
                    return x;
                }
            }
            throw new ValueException("no non-null, non-empty argument");
        });
        f.add("coalescelist", 1, -1, a -> {
            for (Object x : a) {
                if (!list(x).isEmpty()) {
                    return x;
                }
            }
            return List.of();
        });
        f.add("compact", 1, 1, a -> HclValues.listOf(list(a.get(0)).stream().filter(x -> x != null && !"".equals(x)).toList()));
        f.add("concat", 1, -1, a -> {
            List<Object> out = new ArrayList<>();
            for (Object x : a) {
                out.addAll(list(x));
            }
            return HclValues.listOf(out);
        });
        f.add("contains", 2, 2, a -> list(a.get(0)).stream().anyMatch(x -> HclValues.equal(x, a.get(1))));
        f.add("distinct", 1, 1, a -> HclValues.listOf(distinct(list(a.get(0)))));
        f.add("element", 2, 2, a -> {
            List<Object> l = list(a.get(0));
            if (l.isEmpty()) {
                throw new ValueException("cannot use element() on an empty list");
            }
            return l.get((int) Math.floorMod(integer(a.get(1)), l.size()));
        });
        f.add("flatten", 1, 1, a -> {
            List<Object> out = new ArrayList<>();
            flatten(list(a.get(0)), out);
            return HclValues.listOf(out);
        });
        f.add("index", 2, 2, a -> {
            List<Object> l = list(a.get(0));
            for (int i = 0; i < l.size(); i++) {
                if (HclValues.equal(l.get(i), a.get(1))) {
                    return (long) i;
                }
            }
            throw new ValueException("the value is not in the list");
        });
        f.add("keys", 1, 1, a -> HclValues.listOf(new ArrayList<>(HclValues.sortedMap(map(a.get(0))).keySet())));
        f.add("values", 1, 1, a -> HclValues.listOf(new ArrayList<>(HclValues.sortedMap(map(a.get(0))).values())));
        f.add("length", 1, 1, a -> {
            Object x = a.get(0);
            if (x instanceof String s) {
                return (long) s.codePointCount(0, s.length());
            } else if (x instanceof List<?> l) {
                return (long) l.size();
            }
            return (long) map(x).size();
        });
        f.add("lookup", 2, 3, a -> {
            Map<String, Object> m = map(a.get(0));
            String k = str(a.get(1));
            if (m.containsKey(k)) {
                return m.get(k);
            }
            if (a.size() == 3) {
                return a.get(2);
            }
            throw new ValueException("no key \"" + k + "\" and no default");
        });
        f.add("merge", 0, -1, a -> {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object x : a) {
                if (x != null) {
                    out.putAll(map(x));
                }
            }
            return HclValues.sortedMap(out);
        });
        f.add("range", 1, 3, HclCollectionFunctions::range);
        f.add("reverse", 1, 1, a -> {
            List<Object> l = new ArrayList<>(list(a.get(0)));
            java.util.Collections.reverse(l);
            return HclValues.listOf(l);
        });
        f.add("setintersection", 1, -1, a -> {
            List<Object> out = new ArrayList<>(distinct(list(a.get(0))));
            for (Object x : a.subList(1, a.size())) {
                List<Object> other = list(x);
                out.removeIf(v -> other.stream().noneMatch(o -> HclValues.equal(o, v)));
            }
            return HclValues.listOf(out);
        });
        f.add("setunion", 1, -1, a -> {
            List<Object> out = new ArrayList<>();
            for (Object x : a) {
                out.addAll(list(x));
            }
            return HclValues.listOf(distinct(out));
        });
        f.add("setproduct", 1, -1, a -> {
            List<Object> out = new ArrayList<>();
            out.add(List.of());
            for (Object x : a) {
                List<Object> next = new ArrayList<>();
                for (Object prefix : out) {
                    for (Object v : list(x)) {
                        List<Object> t = new ArrayList<>(list(prefix));
                        t.add(v);
                        next.add(HclValues.listOf(t));
                    }
                }
                out = next;
            }
            return HclValues.listOf(out);
        });
        f.add("slice", 3, 3, a -> {
            List<Object> l = list(a.get(0));
            long from = integer(a.get(1));
            long to = integer(a.get(2));
            if (from < 0 || to > l.size() || from > to) {
                throw new ValueException("indexes " + from + ", " + to + " out of range for a list of " + l.size());
            }
            return HclValues.listOf(l.subList((int) from, (int) to));
        });
        f.add("sort", 1, 1, a -> {
            List<String> l = new ArrayList<>();
            for (Object x : list(a.get(0))) {
                l.add(str(x));
            }
            java.util.Collections.sort(l);
            return HclValues.listOf(new ArrayList<>(l));
        });
        f.add("zipmap", 2, 2, a -> {
            List<Object> k = list(a.get(0));
            List<Object> v = list(a.get(1));
            if (k.size() != v.size()) {
                throw new ValueException("the key and value lists differ in length");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (int i = 0; i < k.size(); i++) {
                out.put(str(k.get(i)), v.get(i));
            }
            return HclValues.sortedMap(out);
        });
        f.add("tolist", 1, 1, a -> HclValues.listOf(list(a.get(0))));
        f.add("toset", 1, 1, a -> HclValues.listOf(distinct(list(a.get(0)))));
        f.add("tomap", 1, 1, a -> HclValues.sortedMap(map(a.get(0))));
        f.add("tonumber", 1, 1, a -> a.get(0) == null ? null : num(a.get(0)));
        f.add("tobool", 1, 1, a -> a.get(0) == null ? null : HclValues.bool(a.get(0)));
        numbers(f);
    }

    private static void numbers(HclFunctions f) {
        f.add("abs", 1, 1, a -> num(a.get(0)) instanceof Long l ? (Object) Math.abs(l) : HclValues.number(Math.abs(num(a.get(0)).doubleValue())));
        f.add("ceil", 1, 1, a -> HclValues.number(Math.ceil(num(a.get(0)).doubleValue())));
        f.add("floor", 1, 1, a -> HclValues.number(Math.floor(num(a.get(0)).doubleValue())));
        f.add("log", 2, 2, a -> HclValues.number(Math.log(num(a.get(0)).doubleValue()) / Math.log(num(a.get(1)).doubleValue())));
        f.add("pow", 2, 2, a -> HclValues.number(Math.pow(num(a.get(0)).doubleValue(), num(a.get(1)).doubleValue())));
        f.add("signum", 1, 1, a -> (long) Math.signum(num(a.get(0)).doubleValue()));
        f.add("max", 1, -1, a -> extreme(a, true));
        f.add("min", 1, -1, a -> extreme(a, false));
        f.add("parseint", 2, 2, a -> {
            long base = integer(a.get(1));
            if (base < 2 || base > 62) {
                throw new ValueException("the base must be between 2 and 62");
            }
            try {
                return Long.parseLong(str(a.get(0)), (int) base);
            } catch (NumberFormatException e) {
                throw new ValueException("\"" + str(a.get(0)) + "\" is not a number in base " + base);
            }
        });
    }

    private static Object extreme(List<Object> a, boolean max) throws ValueException {
        Number best = null;
        for (Object x : a) {
            Number n = num(x);
            if (best == null || (max ? n.doubleValue() > best.doubleValue() : n.doubleValue() < best.doubleValue())) {
                best = n;
            }
        }
        return best;
    }

    private static Object range(List<Object> a) throws ValueException {
        double start = a.size() == 1 ? 0 : num(a.get(0)).doubleValue();
        double end = num(a.get(a.size() == 1 ? 0 : 1)).doubleValue();
        double step = a.size() == 3 ? num(a.get(2)).doubleValue() : (start <= end ? 1 : -1);
        if (step == 0 || (step > 0) != (start <= end) && start != end) {
            throw new ValueException("the step must be non-zero and move start towards the end");
        }
        List<Object> out = new ArrayList<>();
        for (double v = start; step > 0 ? v < end : v > end; v += step) {
            if (out.size() >= MAX_RANGE) {
                throw new ValueException("more than " + MAX_RANGE + " elements");
            }
            out.add(HclValues.number(v));
        }
        return HclValues.listOf(out);
    }

    private static List<Object> distinct(List<Object> l) {
        List<Object> out = new ArrayList<>();
        for (Object x : l) {
            if (out.stream().noneMatch(o -> HclValues.equal(o, x))) {
                out.add(x);
            }
        }
        return out;
    }

    private static void flatten(List<Object> l, List<Object> out) throws ValueException {
        for (Object x : l) {
            if (x instanceof List<?>) {
                flatten(list(x), out);
            } else {
                out.add(x);
            }
        }
    }
}
