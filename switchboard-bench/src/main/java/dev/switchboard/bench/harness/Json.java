package dev.switchboard.bench.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the report (maps, collections, strings, numbers, booleans, null), and the reader the
 * harness uses to merge the reports of its child runs ({@link #parse}).
 */
final class Json {
    private Json() {
    }

    /**
     * Reads one JSON value: objects become {@link LinkedHashMap}s (in the order written), arrays {@link ArrayList}s,
     * numbers {@link Long}s when written without a fraction or exponent and {@link Double}s otherwise.
     *
     * @throws IllegalArgumentException if {@code text} is not one well-formed JSON value
     */
    static Object parse(String text) {
        Reader r = new Reader(text);
        Object v = r.value();
        r.skipSpace();
        if (r.pos != text.length()) {
            throw r.error("text after the value");
        }
        return v;
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
            case long[] a -> {
                sb.append('[');
                for (int i = 0; i < a.length; i++) {
                    sb.append(i == 0 ? "" : ", ").append(a[i]);
                }
                sb.append(']');
            }
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

    /** A recursive-descent reader over the whole text. */
    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Object value() {
            skipSpace();
            if (pos >= s.length()) {
                throw error("a value expected");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> word("true", Boolean.TRUE);
                case 'f' -> word("false", Boolean.FALSE);
                case 'n' -> word("null", null);
                default -> number();
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw error("a key expected");
                }
                String key = string();
                skipSpace();
                expect(':');
                m.put(key, value());
                skipSpace();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect('}');
                    return m;
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;
            skipSpace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                skipSpace();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }

        private String string() {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }

        private Object number() {
            int start = pos;
            boolean integral = true;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                char c = s.charAt(pos++);
                if (c == '.' || c == 'e' || c == 'E') {
                    integral = false;
                }
            }
            String n = s.substring(start, pos);
            try {
                return integral ? (Object) Long.parseLong(n) : (Object) Double.parseDouble(n);
            } catch (NumberFormatException e) {
                pos = start;
                throw error("a value expected");
            }
        }

        private Object word(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("a value expected");
            }
            pos += word.length();
            return value;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("'" + c + "' expected");
            }
            pos++;
        }

        void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
        }
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
