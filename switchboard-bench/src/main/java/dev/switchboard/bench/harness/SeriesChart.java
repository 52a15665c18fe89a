package dev.switchboard.bench.harness;

import java.util.Locale;

/**
 * An inline SVG of a {@link Series}: time on the horizontal axis (the periods), each line drawn to its own scale
 * from 0 to its largest value, which its label in the legend gives. No scripts, nothing fetched.
 */
public final class SeriesChart {
    private static final String[] COLORS = {"#2b6cb0", "#c53030", "#2f855a", "#d69e2e", "#6b46c1"};
    private static final int WIDTH = 640;
    private static final int HEIGHT = 160;
    private static final int LEGEND = 18;

    private SeriesChart() {
    }

    /** The chart of {@code series}, with its title above it. */
    public static String render(Series series) {
        int legendRows = series.lines().size();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<p>%s (period %d ms, %d periods)</p>%n<svg width='%d' height='%d' xmlns='http://www.w3.org/2000/svg'"
                        + " font-size='12'>%n", HtmlReport.esc(series.title()), series.periodMs(), series.periods(),
                WIDTH, HEIGHT + 24 + LEGEND * legendRows));
        sb.append(String.format(Locale.ROOT,
                "<rect x='0' y='0' width='%d' height='%d' fill='none' stroke='#cbd5e0'/>%n", WIDTH, HEIGHT));
        int periods = series.periods();
        for (int k = 0; k < series.lines().size(); k++) {
            Series.Line line = series.lines().get(k);
            String color = COLORS[k % COLORS.length];
            sb.append(polyline(line.values(), periods, color));
            sb.append(String.format(Locale.ROOT, "<text x='4' y='%d' fill='%s'>%s (0 to %d)</text>%n",
                    HEIGHT + 16 + LEGEND * k, color, HtmlReport.esc(line.label()), line.max()));
        }
        sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%.2f s</text>%n", WIDTH - 4,
                HEIGHT + 16, periods * series.periodMs() / 1000.0));
        return sb.append("</svg>\n").toString();
    }

    private static String polyline(long[] values, int periods, String color) {
        long max = Math.max(1, java.util.Arrays.stream(values).max().orElse(1));
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            double x = periods <= 1 ? 4 : 4 + (double) i * (WIDTH - 8) / (periods - 1);
            double y = HEIGHT - 4 - (double) values[i] * (HEIGHT - 8) / max;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        return "<polyline fill='none' stroke='" + color + "' stroke-width='2' points='" + points.toString().trim()
                + "'/>\n";
    }
}
