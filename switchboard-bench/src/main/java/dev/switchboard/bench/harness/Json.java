package dev.switchboard.bench.harness;

import java.util.Collection;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/** A minimal JSON writer for the report: maps, collections, strings, numbers, booleans, null. */
final class Json {
    private Json() {
    }

    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> string(sb, s);
            case Boolean b -> sb.append(b);
            case Double d -> number(sb, d);
            case Float f -> number(sb, f);
            case Number n -> sb.append(n);
            case Map<?, ?> m -> object(sb, m, indent);
            case Collection<?> c -> array(sb, c.iterator(), indent);
            case double[] a -> {
                sb.append('[');
                for (int i = 0; i < a.length; i++) {
                    sb.append(i == 0 ? "" : ", ");
                    number(sb, a[i]);
                }
                sb.append(']');
            }
            default -> string(sb, v.toString());
        }
    }

    private static void number(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            sb.append("null");
        } else {
            sb.append(String.format(Locale.ROOT, "%.4f", d));
        }
    }

    private static void object(StringBuilder sb, Map<?, ?> m, int indent) {
        if (m.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<?, ?> e = it.next();
            pad(sb, indent + 1);
            string(sb, String.valueOf(e.getKey()));
            sb.append(": ");
            write(sb, e.getValue(), indent + 1);
            sb.append(it.hasNext() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append('}');
    }

    private static void array(StringBuilder sb, Iterator<?> it, int indent) {
        if (!it.hasNext()) {
            sb.append("[]");
            return;
        }
        sb.append("[\n");
        while (it.hasNext()) {
            pad(sb, indent + 1);
            write(sb, it.next(), indent + 1);
            sb.append(it.hasNext() ? ",\n" : "\n");
        }
        pad(sb, indent);
        sb.append(']');
    }

    private static void pad(StringBuilder sb, int indent) {
        sb.append("  ".repeat(indent));
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
