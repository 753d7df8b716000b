package dev.fakbattery.bench.tax;

import java.awt.Color;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.fakbattery.api.ArtifactFiles;
import dev.fakbattery.api.stats.RateSearch;

/**
 * The rate sweep's plot, drawn with XChart, headless: goodput (requests/s meeting every SLO) of raw and gateway
 * against the offered rate, the line where goodput equals the offered rate times the attainment target, and each
 * arm's highest rate met as a vertical line. Written atomically.
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
		XYChart chart = new XYChartBuilder().width(900).height(540)
			.title("Goodput vs offered rate at " + load.slo() + (simulated ? " (SIMULATED: engine double)" : ""))
			.xAxisTitle("offered rate (req/s)").yAxisTitle("goodput (req/s meeting every SLO)").build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
		double[] rates = levels.stream().mapToDouble(RateLevel::rate).toArray();
		arm(chart, "raw", rates, levels.stream().mapToDouble(l -> finite(l.goodputA().requestGoodput())).toArray(), new Color(44, 160, 44));
		arm(chart, "gateway", rates, levels.stream().mapToDouble(l -> finite(l.goodputB().requestGoodput())).toArray(),
				new Color(214, 39, 40));
		double max = rates[rates.length - 1];
		XYSeries offered = chart.addSeries("offered x " + load.attainment(), new double[] { 0, max },
				new double[] { 0, max * load.attainment() });
		offered.setMarker(SeriesMarkers.NONE).setLineColor(Color.GRAY).setLineStyle(SeriesLines.DASH_DASH);
		result.rawMax().ifPresent(r -> marker(chart, "raw max met " + r, r, max, new Color(44, 160, 44)));
		result.gatewayMax().ifPresent(r -> marker(chart, "gateway max met " + r, r, max, new Color(214, 39, 40)));
		return ArtifactFiles.write(target, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
	}

	private static void arm(XYChart chart, String name, double[] rates, double[] goodput, Color color) {
		XYSeries series = chart.addSeries(name, rates, goodput);
		series.setMarker(SeriesMarkers.CIRCLE).setMarkerColor(color).setLineColor(color);
	}

	private static void marker(XYChart chart, String name, double rate, double max, Color color) {
		XYSeries line = chart.addSeries(name, new double[] { rate, rate }, new double[] { 0, max });
		line.setMarker(SeriesMarkers.NONE).setLineColor(color).setLineStyle(SeriesLines.DOT_DOT);
	}

	private static double finite(double value) {
		return Double.isFinite(value) ? value : 0;
	}
}
