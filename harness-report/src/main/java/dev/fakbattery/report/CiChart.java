package dev.fakbattery.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.ArtifactFiles;

import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Points with their 95 % intervals as vertical bars over numbered slots (runs, or base and head), drawn with
 * XChart, headless, written atomically as PNG. The slots are named by text under the plot, not by tick labels
 * (XChart's tick formatter loops on sparse labels). A reading without an interval is drawn as a point alone.
 */
final class CiChart {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	static final List<Color> PALETTE = List.of(new Color(31, 119, 180), new Color(214, 39, 40), new Color(44, 160, 44),
			new Color(148, 103, 189), new Color(255, 127, 14), new Color(23, 190, 207), new Color(140, 86, 75),
			new Color(227, 119, 194), new Color(127, 127, 127), new Color(188, 189, 34));

	private CiChart() {
	}

	static XYChart chart(String title, String xTitle, String yTitle) {
		XYChart chart = new XYChartBuilder().width(960).height(720).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
		chart.getStyler().setXAxisTicksVisible(false);
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Vertical);
		return chart;
	}

	/** One series: {@code readings[i]} at {@code x[i]}, joined by a thin line, each with its interval as a bar. */
	static void series(XYChart chart, String name, Color color, double[] x, List<Reading> readings) {
		XYSeries points = chart.addSeries(name, x, readings.stream().mapToDouble(Reading::value).toArray());
		points.setMarker(SeriesMarkers.CIRCLE).setMarkerColor(color).setLineColor(color).setLineStyle(new BasicStroke(0.8f));
		for (int i = 0; i < x.length; i++) {
			Reading reading = readings.get(i);
			if (reading.ci() != null) {
				XYSeries bar = chart.addSeries(name + " ci95 " + i, new double[]{ x[i], x[i] },
						new double[]{ reading.ci().lo(), reading.ci().hi() });
				bar.setMarker(SeriesMarkers.NONE).setLineColor(color).setLineStyle(new BasicStroke(2f)).setShowInLegend(false);
			}
		}
	}

	/**
	 * The dashed parity line at 1 from slot 0.5 to {@code slots + 0.5}, and each slot's name under the lowest
	 * point of {@code readings}.
	 */
	static void slots(XYChart chart, List<String> names, List<Reading> readings) {
		double low = readings.stream().mapToDouble(r -> r.ci() == null ? r.value() : Math.min(r.value(), r.ci().lo())).min().orElse(1);
		double high = readings.stream().mapToDouble(r -> r.ci() == null ? r.value() : Math.max(r.value(), r.ci().hi())).max().orElse(1);
		low = Math.min(low, 1);
		high = Math.max(high, 1);
		double pad = Math.max((high - low) * 0.12, 0.002);
		chart.getStyler().setYAxisMin(low - 2 * pad).setYAxisMax(high + pad).setXAxisMin(0.5).setXAxisMax(names.size() + 0.5);
		XYSeries parity = chart.addSeries("parity (1.0)", new double[]{ 0.5, names.size() + 0.5 }, new double[]{ 1, 1 });
		parity.setMarker(SeriesMarkers.NONE).setLineColor(Color.GRAY).setLineStyle(SeriesLines.DASH_DASH);
		for (int i = 0; i < names.size(); i++) {
			chart.addAnnotation(new AnnotationText(names.get(i), i + 1, low - 1.3 * pad, false));
		}
	}

	static Path write(XYChart chart, Path target) {
		return ArtifactFiles.write(target, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
	}
}
