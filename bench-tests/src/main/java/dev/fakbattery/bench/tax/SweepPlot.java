package dev.fakbattery.bench.tax;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.RequestOutcome;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The sweep's two PNG plots, drawn with XChart, headless: (a) the gateway/raw ratio against
 * concurrency with its 95% interval as a bar per level and the parity line at 1; (b) the E2EL
 * cumulative distributions of raw and gateway at one level. Written atomically.
 *
 * @since 0.1
 */
public final class SweepPlot {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static final Color RATIO = new Color(31, 119, 180);

	private SweepPlot() {
	}

	/** Plot (a): ratio vs concurrency with CI bars. */
	public static Path ratio(List<SweepLevel> levels, Path target, boolean simulated) {
		XYChart chart = new XYChartBuilder().width(900)
				.height(540)
				.title("Gateway/raw throughput ratio vs concurrency" + (simulated ? " (SIMULATED: engine double)" : ""))
				.xAxisTitle("concurrency (log)")
				.yAxisTitle("gateway/raw batch output tok/s, median over ABBA pairs (95% CI)")
				.build();
		chart.getStyler().setXAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.InsideSW);
		List<SweepLevel> measured = levels.stream().filter(l -> l.ratio().isDefined()).toList();
		double[] x = levels.stream().mapToDouble(SweepLevel::concurrency).toArray();
		if (!measured.isEmpty()) {
			XYSeries ratio = chart.addSeries("gateway/raw ratio (unmeasured levels left out)",
					measured.stream().mapToDouble(SweepLevel::concurrency).toArray(),
					measured.stream().mapToDouble(l -> l.ratio().estimate()).toArray());
			ratio.setMarkerColor(RATIO).setMarker(SeriesMarkers.CIRCLE);
			ratio.setLineColor(RATIO);
		}
		for (SweepLevel level : measured) {
			XYSeries bar = chart.addSeries("ci95 c=" + level.concurrency(), new double[]{ level.concurrency(), level.concurrency() },
					new double[]{ level.ratio().lo(), level.ratio().hi() });
			bar.setMarker(SeriesMarkers.NONE);
			bar.setLineColor(RATIO).setLineStyle(new BasicStroke(2f));
			bar.setShowInLegend(false);
		}
		double max = Arrays.stream(x).max().orElse(1);
		XYSeries parity = chart.addSeries("parity (1.0)", new double[]{ Arrays.stream(x).min().orElse(1), Math.max(max, 2) },
				new double[]{ 1, 1 });
		parity.setMarker(SeriesMarkers.NONE).setLineColor(Color.GRAY).setLineStyle(SeriesLines.DASH_DASH);
		return write(chart, target);
	}

	/** Plot (b): E2EL CDFs of both arms at one level. */
	public static Path e2elCdf(SweepLevel level, Path target, boolean simulated) {
		XYChart chart = new XYChartBuilder().width(900)
				.height(540)
				.title("E2EL CDF at concurrency " + level.concurrency() + (simulated ? " (SIMULATED: engine double)" : ""))
				.xAxisTitle("E2EL (ms)")
				.yAxisTitle("fraction of requests")
				.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
		addCdf(chart, "raw", level.a(), new Color(44, 160, 44));
		addCdf(chart, "gateway", level.b(), new Color(214, 39, 40));
		return write(chart, target);
	}

	private static void addCdf(XYChart chart, String name, LoadResult result, Color color) {
		double[] e2el = result.ok().stream().mapToDouble(RequestOutcome::e2elMs).sorted().toArray();
		if (e2el.length == 0) {
			return;
		}
		double[] fraction = new double[e2el.length];
		for (int i = 0; i < e2el.length; i++) {
			fraction[i] = (i + 1) / (double) e2el.length;
		}
		XYSeries series = chart.addSeries(name + " (n=" + e2el.length + ")", e2el, fraction);
		series.setMarker(SeriesMarkers.NONE).setLineColor(color);
	}

	private static Path write(XYChart chart, Path target) {
		return ArtifactFiles.write(target, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
	}
}
