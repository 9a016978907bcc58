package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dynamic "TYPE" { for_each = ..., iterator = NAME, labels = [...], content { ... } }}: one
 * {@code TYPE} block per element of {@code for_each}, its content evaluated with {@code NAME.key} and
 * {@code NAME.value} (NAME defaults to TYPE), as HCL's dynblock extension (which Nomad's jobspec uses) does.
 */
final class HclDynamicBlocks {
    /** Most blocks one dynamic block may make: a job file must not exhaust the parser's heap. */
    static final int MAX_BLOCKS = 10_000;

    private HclDynamicBlocks() {}

    static List<HclItem> expand(HclBlock d, HclScope scope, HclEvaluation evaluation) {
        List<HclItem> out = new ArrayList<>();
        if (d.labels().size() != 1) {
            evaluation.problem(new HclSyntaxException(d.line(), "dynamic takes one label, the block type: dynamic \"port\" { ... }"));
            return out;
        }
        String type = d.labels().get(0);
        HclValue forEach = null;
        HclValue labels = null;
        String iterator = type;
        HclBlock content = null;
        for (HclItem item : d.body().items()) {
            if (item instanceof HclAttribute a && a.name().equals("for_each")) {
                forEach = a.value();
            } else if (item instanceof HclAttribute a && a.name().equals("labels")) {
                labels = a.value();
            } else if (item instanceof HclAttribute a && a.name().equals("iterator")) {
                if (a.value() instanceof HclValue.Expr e && e.expr() instanceof HclExpr.Ref r) {
                    iterator = r.name();
                } else if (a.value() instanceof HclValue.Str s) {
                    iterator = s.value();
                } else {
                    evaluation.problem(new HclSyntaxException(a.line(), "dynamic \"" + type + "\" > iterator: must be a name"));
                    return out;
                }
            } else if (item instanceof HclBlock b && b.type().equals("content")) {
                content = b;
            } else {
                evaluation.problem(new HclSyntaxException(item.line(), "dynamic \"" + type
                        + "\": unknown key (allowed: for_each, iterator, labels, content)"));
                return out;
            }
        }
        if (forEach == null || content == null) {
            evaluation.problem(new HclSyntaxException(d.line(), "dynamic \"" + type + "\" needs for_each and a content block"));
            return out;
        }
        List<Map.Entry<Object, Object>> entries;
        try {
            entries = HclForExpressions.entries(evaluation.eval(forEach, scope));
        } catch (HclSyntaxException e) {
            evaluation.problem(e);
            return out;
        } catch (ValueException e) {
            evaluation.problem(new HclSyntaxException(forEach.line(), "dynamic \"" + type + "\" > for_each: " + e.getMessage()));
            return out;
        }
        if (entries.size() > MAX_BLOCKS) {
            evaluation.problem(new HclSyntaxException(forEach.line(), "dynamic \"" + type + "\" makes " + entries.size()
                    + " blocks; at most " + MAX_BLOCKS));
            return out;
        }
        for (Map.Entry<Object, Object> entry : entries) {
            Map<String, Object> it = new LinkedHashMap<>();
            it.put("key", entry.getKey());
            it.put("value", entry.getValue());
            HclScope inner = scope.with(Map.of(iterator, java.util.Collections.unmodifiableMap(it)));
            List<String> blockLabels = new ArrayList<>();
            if (labels != null) {
                try {
                    for (Object l : HclValues.list(evaluation.eval(labels, inner))) {
                        blockLabels.add(HclValues.str(l));
                    }
                } catch (HclSyntaxException e) {
                    evaluation.problem(e);
                    return out;
                } catch (ValueException e) {
                    evaluation.problem(new HclSyntaxException(labels.line(), "dynamic \"" + type + "\" > labels: " + e.getMessage()));
                    return out;
                }
            }
            out.add(new HclBlock(type, blockLabels, evaluation.evaluateBody(content.body(), inner, d.line()), d.line()));
        }
        return out;
    }
}
