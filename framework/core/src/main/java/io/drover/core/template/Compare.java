package io.drover.core.template;

/** Go's eq/lt for basic kinds: numbers by value (integers and floats mixed), strings, bools. Pure. */
final class Compare {
    private Compare() {}

    static boolean equal(Object a, Object b) throws TemplateException {
        if (a instanceof Number x && b instanceof Number y) {
            return Values.integral(x) && Values.integral(y) ? x.longValue() == y.longValue()
                    : x.doubleValue() == y.doubleValue();
        }
        if (a == null || b == null) {
            return a == b;
        }
        if (a.getClass() != b.getClass() && !(a instanceof String && b instanceof String)) {
            throw new TemplateException("incompatible types for comparison: " + Values.print(a) + " and "
                    + Values.print(b));
        }
        return a.equals(b);
    }

    static int order(Object a, Object b) throws TemplateException {
        if (a instanceof Number x && b instanceof Number y) {
            return Values.integral(x) && Values.integral(y) ? Long.compare(x.longValue(), y.longValue())
                    : Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        throw new TemplateException("incompatible types for comparison: " + Values.print(a) + " and "
                + Values.print(b));
    }
}
