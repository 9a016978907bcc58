package io.drover.core.template;

/**
 * consul-template's math: {@code add a b}; {@code subtract b a}, {@code divide b a} and {@code modulo b a} take
 * their operand first so that {@code {{ 10 | subtract 3 }}} is 7. Integers stay integers. Pure.
 */
final class Math2 {
    private Math2() {}

    static Object apply(String fn, Object first, Object second) throws TemplateException {
        Number b = Values.number(first, fn);
        Number a = Values.number(second, fn);
        boolean ints = Values.integral(a) && Values.integral(b);
        switch (fn) {
            case "add" -> {
                return ints ? (Object) (a.longValue() + b.longValue()) : a.doubleValue() + b.doubleValue();
            }
            case "subtract" -> {
                return ints ? (Object) (a.longValue() - b.longValue()) : a.doubleValue() - b.doubleValue();
            }
            case "multiply" -> {
                return ints ? (Object) (a.longValue() * b.longValue()) : a.doubleValue() * b.doubleValue();
            }
            case "divide", "modulo" -> {
                if (b.doubleValue() == 0) {
                    throw new TemplateException(fn + ": division by zero");
                }
                if (fn.equals("modulo")) {
                    return ints ? (Object) (a.longValue() % b.longValue()) : a.doubleValue() % b.doubleValue();
                }
                return ints ? (Object) (a.longValue() / b.longValue()) : a.doubleValue() / b.doubleValue();
            }
            case "minimum" -> {
                return Compare.order(a, b) <= 0 ? a : b;
            }
            case "maximum" -> {
                return Compare.order(a, b) >= 0 ? a : b;
            }
            default -> throw new TemplateException("unknown math function " + fn);
        }
    }
}
