package dev.switchboard.bench.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report's summary chart: a horizontal bar per benchmark and peer side, drawn on a logarithmic axis from
 * a line at 1, so a ratio of 4 and one of 1/4 are bars of the same length on either side of it, and one extreme
 * ratio does not flatten every other bar. A bar to the right of the line means Switchboard was faster. The
 * headline side's bar is drawn solid, the others lighter; a whisker shows the spread over runs where there is
 * one. Names are never cut: the name column is as wide as the longest name. Inline SVG, no scripts.
 */
final class RatioChart {
    /** One bar: a peer side's ratio, and its spread (the same as the value when there is none). */
    record Bar(Side side, boolean headline, double value, double lo, double hi) {
    }

    /** One benchmark (or summary line): its name, and its bars or why it has none. */
    record Row(String name, List<Bar> bars, String failure) {
    }

    private static final int PLOT_WIDTH = 620;
    /** A generous width of a character at 13 px, so that names and values are never cut. */
    private static final double CHAR_WIDTH = 8.2;
    private static final int BAR_ROW = 16;
    private static final int GROUP_GAP = 8;
    private static final double[] STEPS = {1, 2, 5};

    private RatioChart() {
    }

    static String render(List<Row> rows) {
        double lo = 1;
        double hi = 1;
        int longest = 0;
        int longestValue = 0;
        for (Row row : rows) {
            longest = Math.max(longest, row.name().length());
            for (Bar bar : row.bars()) {
                lo = Math.min(lo, Math.min(bar.value(), bar.lo()));
                hi = Math.max(hi, Math.max(bar.value(), bar.hi()));
                longestValue = Math.max(longestValue, bar.side().key().length() + 1 + value(bar).length());
            }
        }
        Axis axis = new Axis(lo, hi);
        int left = Math.max(140, (int) Math.ceil(longest * CHAR_WIDTH) + 24);
        int top = 34;
        int height = top + 48;
        for (Row row : rows) {
            height += Math.max(1, row.bars().size()) * BAR_ROW + GROUP_GAP;
        }
        int width = left + PLOT_WIDTH + Math.max(120, (int) Math.ceil(longestValue * CHAR_WIDTH) + 24);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg class='ratio-chart' data-scale='log' width='%d' height='%d' viewBox='0 0 %d %d'"
                        + " xmlns='http://www.w3.org/2000/svg' font-size='13'>%n", width, height, width, height));
        int bottom = height - 40;
        double one = left + axis.x(1);
        sb.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%.1f' height='%d' fill='#fff5f5'/>%n",
                left, top, one - left, bottom - top));
        sb.append(String.format(Locale.ROOT, "<text x='%.1f' y='14' text-anchor='end' fill='#9b2c2c'>&#8592;"
                + " Switchboard slower</text><text x='%.1f' y='14'>Switchboard faster &#8594;</text>%n",
                one - 8, one + 8));
        for (double tick : axis.ticks()) {
            double x = left + axis.x(tick);
            sb.append(String.format(Locale.ROOT, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#e2e8f0'/>"
                    + "<text x='%.1f' y='%d' text-anchor='middle' fill='#4a5568'>%s</text>%n",
                    x, top, x, bottom, x, bottom + 16, label(tick)));
        }
        sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='middle' fill='#4a5568'>ratio (log"
                + " scale)</text>%n", left + PLOT_WIDTH / 2, height - 4));
        int y = top + GROUP_GAP / 2;
        for (Row row : rows) {
            int rowsHere = Math.max(1, row.bars().size());
            sb.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='end'>%s</text>%n", left - 10,
                    y + rowsHere * BAR_ROW / 2 + 5, HtmlReport.esc(row.name())));
            if (row.bars().isEmpty()) {
                sb.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' fill='#c53030'>%s</text>%n", one + 6,
                        y + 12, HtmlReport.esc(row.failure() == null ? "no result" : "failed")));
            }
            int barY = y;
            for (Bar bar : row.bars()) {
                bar(sb, bar, left, axis, barY);
                barY += BAR_ROW;
            }
            y += rowsHere * BAR_ROW + GROUP_GAP;
        }
        sb.append(String.format(Locale.ROOT, "<line class='one' x1='%.1f' y1='%d' x2='%.1f' y2='%d'"
                + " stroke='#1a202c' stroke-width='1.5'/>%n", one, top - 4, one, bottom));
        return sb.append("</svg>\n").toString();
    }

    private static void bar(StringBuilder sb, Bar bar, int left, Axis axis, int y) {
        double one = left + axis.x(1);
        double end = left + axis.x(bar.value());
        int h = bar.headline() ? 12 : 8;
        double top = y + (BAR_ROW - h) / 2.0;
        sb.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='%.1f' height='%d' fill='%s'"
                + " fill-opacity='%s'><title>%s: %s</title></rect>%n", Math.min(one, end), top,
                Math.max(1, Math.abs(end - one)), h, HtmlReport.color(bar.side()), bar.headline() ? "1" : "0.55",
                HtmlReport.esc(bar.side().label()), value(bar)));
        if (bar.lo() != bar.hi()) {
            double a = left + axis.x(bar.lo());
            double b = left + axis.x(bar.hi());
            double mid = y + BAR_ROW / 2.0;
            sb.append(String.format(Locale.ROOT, "<path class='spread' d='M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1f"
                    + "V%.1f' stroke='#1a202c' fill='none'/>%n", a, mid, b, a, mid - 4, mid + 4, b, mid - 4, mid + 4));
        }
        sb.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' fill='%s'%s>%s %s</text>%n",
                left + PLOT_WIDTH + 12, y + BAR_ROW / 2.0 + 4.5, bar.value() < 1 ? "#c53030" : "#1a202c",
                bar.headline() ? " font-weight='bold'" : "", HtmlReport.esc(bar.side().key()), value(bar)));
    }

    private static String value(Bar bar) {
        String v = String.format(Locale.ROOT, "%.2f", bar.value());
        return bar.lo() == bar.hi() ? v : String.format(Locale.ROOT, "%s (%.2f-%.2f)", v, bar.lo(), bar.hi());
    }

    private static String label(double tick) {
        return tick >= 1 ? String.format(Locale.ROOT, "%.0f", tick) : String.format(Locale.ROOT, "%s", tick);
    }

    /**
     * The logarithmic axis: from the largest 1-2-5 step at or below the smallest value to the smallest at or above
     * the largest, always including 1; {@link #x} maps a ratio to a distance from the plot's left edge.
     */
    static final class Axis {
        final double min;
        final double max;

        Axis(double lo, double hi) {
            this.min = stepAtOrBelow(Math.min(lo, 1) / 1.1);
            this.max = stepAtOrAbove(Math.max(hi, 1) * 1.1);
        }

        double x(double ratio) {
            double v = Math.max(min, Math.min(max, ratio));
            return Math.log(v / min) / Math.log(max / min) * PLOT_WIDTH;
        }

        /** The 1-2-5 steps from min to max; only the powers of ten when there are more than a dozen. */
        List<Double> ticks() {
            List<Double> all = new ArrayList<>();
            for (int e = (int) Math.floor(Math.log10(min)); e <= (int) Math.ceil(Math.log10(max)); e++) {
                for (double step : STEPS) {
                    double t = step * Math.pow(10, e);
                    if (t >= min * 0.999 && t <= max * 1.001) {
                        all.add(round(t));
                    }
                }
            }
            if (all.size() > 12) {
                all.removeIf(t -> Math.abs(Math.log10(t) - Math.rint(Math.log10(t))) > 1e-9);
            }
            return all;
        }

        private static double stepAtOrBelow(double v) {
            int e = (int) Math.floor(Math.log10(v));
            double best = Math.pow(10, e);
            for (double step : STEPS) {
                double t = step * Math.pow(10, e);
                if (t <= v) {
                    best = t;
                }
            }
            return round(best);
        }

        private static double stepAtOrAbove(double v) {
            int e = (int) Math.floor(Math.log10(v));
            for (double step : STEPS) {
                double t = step * Math.pow(10, e);
                if (t >= v) {
                    return round(t);
                }
            }
            return round(Math.pow(10, e + 1));
        }

        private static double round(double t) {
            return Double.parseDouble(String.format(Locale.ROOT, "%.6g", t));
        }
    }
}
