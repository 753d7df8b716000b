package dev.fakbattery.bench.tax;

import java.awt.Color;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.stats.RateSearch;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The rate sweep's plot, drawn with XChart, headless: against the offered rate, each arm's goodput (requests/s meeting
 * every SLO, over the seconds of its batches' arrivals, vLLM's {@code request_goodput}) on the left axis and its SLO
 * attainment (the share of requests meeting every SLO, what decides whether a rate is met) on the right axis, the
 * attainment target as a horizontal line, and each arm's highest rate met as a vertical line. Written atomically.
 *
 * @since 0.3
 */
public final class RatePlot {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private RatePlot() {
	}

	/** Goodput against offered rate, both arms. */
	public static Path goodput(List<RateLevel> levels, RateSearch.Result result, TaxSettings.RateLoad load, Path target,
			boolean simulated) {
		XYChart chart = new XYChartBuilder().width(900)
				.height(540)
				.title("Goodput vs offered rate at " + load.slo() + (simulated ? " (SIMULATED: engine double)" : ""))
				.xAxisTitle("offered rate (req/s)")
				.yAxisTitle("goodput (req/s meeting every SLO)")
				.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.setYAxisGroupTitle(1, "SLO attainment (share of requests meeting every SLO)");
		double[] rates = levels.stream().mapToDouble(RateLevel::rate).toArray();
		Color green = new Color(44, 160, 44);
		Color red = new Color(214, 39, 40);
		arm(chart, "raw goodput", rates, levels.stream().mapToDouble(l -> finite(l.goodputA().requestGoodput())).toArray(), green, 0);
		arm(chart, "gateway goodput", rates, levels.stream().mapToDouble(l -> finite(l.goodputB().requestGoodput())).toArray(), red, 0);
		arm(chart, "raw attainment", rates, levels.stream().mapToDouble(l -> finite(l.pointA().attainment())).toArray(), green, 1)
				.setLineStyle(SeriesLines.DASH_DOT);
		arm(chart, "gateway attainment", rates, levels.stream().mapToDouble(l -> finite(l.pointB().attainment())).toArray(), red, 1)
				.setLineStyle(SeriesLines.DASH_DOT);
		double max = rates[rates.length - 1];
		XYSeries goal = chart.addSeries("attainment target " + load.attainment(), new double[]{ 0, max },
				new double[]{ load.attainment(), load.attainment() });
		goal.setYAxisGroup(1);
		goal.setMarker(SeriesMarkers.NONE).setLineColor(Color.GRAY).setLineStyle(SeriesLines.DASH_DASH);
		double top = levels.stream()
				.mapToDouble(l -> Math.max(finite(l.goodputA().requestGoodput()), finite(l.goodputB().requestGoodput())))
				.max()
				.orElse(1);
		result.rawMax().ifPresent(r -> marker(chart, "raw max met " + r, r, top, green));
		result.gatewayMax().ifPresent(r -> marker(chart, "gateway max met " + r, r, top, red));
		return ArtifactFiles.write(target, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
	}

	private static XYSeries arm(XYChart chart, String name, double[] rates, double[] values, Color color, int axis) {
		XYSeries series = chart.addSeries(name, rates, values);
		series.setYAxisGroup(axis);
		series.setMarker(name.startsWith("raw") ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND).setMarkerColor(color).setLineColor(color);
		return series;
	}

	private static void marker(XYChart chart, String name, double rate, double max, Color color) {
		XYSeries line = chart.addSeries(name, new double[]{ rate, rate }, new double[]{ 0, max });
		line.setMarker(SeriesMarkers.NONE).setLineColor(color).setLineStyle(SeriesLines.DOT_DOT);
	}

	private static double finite(double value) {
		return Double.isFinite(value) ? value : 0;
	}
}
