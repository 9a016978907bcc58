package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;

/** HCL2's binary operators on plain values: arithmetic, comparison, equality, logic. Pure. */
final class HclOperators {
    private HclOperators() {}

    /** The right operand, evaluated only when needed ({@code &&} and {@code ||} short-circuit). */
    @FunctionalInterface
    interface Lazy {
        Object get() throws HclSyntaxException;
    }

    static Object binary(String op, Object left, Lazy right) throws HclSyntaxException, ValueException {
        switch (op) {
            case "&&" -> {
                return HclValues.bool(left) && HclValues.bool(right.get());
            }
            case "||" -> {
                return HclValues.bool(left) || HclValues.bool(right.get());
            }
            case "==" -> {
                return HclValues.equal(left, right.get());
            }
            case "!=" -> {
                return !HclValues.equal(left, right.get());
            }
            default -> {
            }
        }
        Number a = HclValues.num(left);
        Number b = HclValues.num(right.get());
        boolean whole = a instanceof Long && b instanceof Long;
        return switch (op) {
            case "+" -> whole ? (Object) Math.addExact(a.longValue(), b.longValue()) : HclValues.number(a.doubleValue() + b.doubleValue());
            case "-" -> whole ? (Object) Math.subtractExact(a.longValue(), b.longValue()) : HclValues.number(a.doubleValue() - b.doubleValue());
            case "*" -> whole ? (Object) Math.multiplyExact(a.longValue(), b.longValue()) : HclValues.number(a.doubleValue() * b.doubleValue());
            case "/" -> {
                if (b.doubleValue() == 0) {
                    throw new ValueException("division by zero");
                }
                yield HclValues.number(a.doubleValue() / b.doubleValue());
            }
            case "%" -> {
                if (b.doubleValue() == 0) {
                    throw new ValueException("modulo by zero");
                }
                yield whole ? (Object) (a.longValue() % b.longValue()) : HclValues.number(a.doubleValue() % b.doubleValue());
            }
            case "<" -> a.doubleValue() < b.doubleValue();
            case "<=" -> a.doubleValue() <= b.doubleValue();
            case ">" -> a.doubleValue() > b.doubleValue();
            case ">=" -> a.doubleValue() >= b.doubleValue();
            default -> throw new ValueException("unknown operator " + op);
        };
    }
}
