package dev.fakbattery.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.fakbattery.api.ArtifactFiles;

/**
 * Points with their 95 % intervals as vertical bars over labelled slots (runs, or metrics), drawn with XChart,
 * headless, written atomically as PNG. A reading without an interval is drawn as a point alone.
 */
final class CiChart {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	static final List<Color> PALETTE = List.of(new Color(31, 119, 180), new Color(214, 39, 40), new Color(44, 160, 44),
			new Color(148, 103, 189), new Color(255, 127, 14), new Color(23, 190, 207), new Color(140, 86, 75));

	private CiChart() {
	}

	/** A chart whose x slots 1..n are named by {@code slotName}. */
	static XYChart chart(String title, String xTitle, String yTitle, Function<Integer, String> slotName) {
		XYChart chart = new XYChartBuilder().width(960).height(560).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.setCustomXAxisTickLabelsFormatter(x -> Math.abs(x - Math.rint(x)) < 1e-9 ? slotName.apply((int) Math.rint(x)) : "");
		return chart;
	}

	/** One series: {@code readings[i]} at slot {@code x[i]}, with its interval as a bar. */
	static void series(XYChart chart, String name, Color color, double[] x, List<Reading> readings) {
		XYSeries points = chart.addSeries(name, x, readings.stream().mapToDouble(Reading::value).toArray());
		points.setMarker(SeriesMarkers.CIRCLE).setMarkerColor(color).setLineStyle(SeriesLines.NONE);
		for (int i = 0; i < x.length; i++) {
			Reading reading = readings.get(i);
			if (reading.ci() != null) {
				XYSeries bar = chart.addSeries(name + " ci95 " + i, new double[] { x[i], x[i] },
						new double[] { reading.ci().low(), reading.ci().high() });
				bar.setMarker(SeriesMarkers.NONE).setLineColor(color).setLineStyle(new BasicStroke(2f)).setShowInLegend(false);
			}
		}
	}

	/** The dashed parity line at 1 between slots {@code from} and {@code to}. */
	static void parity(XYChart chart, double from, double to) {
		XYSeries parity = chart.addSeries("parity (1.0)", new double[] { from, to }, new double[] { 1, 1 });
		parity.setMarker(SeriesMarkers.NONE).setLineColor(Color.GRAY).setLineStyle(SeriesLines.DASH_DASH);
	}

	static Path write(XYChart chart, Path target) {
		return ArtifactFiles.write(target, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
	}
}
