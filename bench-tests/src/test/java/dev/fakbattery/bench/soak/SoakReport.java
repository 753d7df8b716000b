package dev.fakbattery.bench.soak;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.Provenance;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.wire.Json;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/** The soak's artifact ({@value #FILE}, schema {@value #SCHEMA}) and its plot ({@value #PLOT}), written atomically. */
final class SoakReport {

	static final String FILE = "soak.json";

	static final String PLOT = "soak.png";

	static final String SCHEMA = "fak-battery.soak.v1";

	private SoakReport() {
	}

	static ObjectNode write(Path dir, HarnessConfig config, TargetIdentity target, ObjectNode settings, List<SoakSeries> series,
			SoakLoad load, List<String> findings) throws IOException {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", SCHEMA).put("generated_at", Instant.now().toString());
		doc.put("verdict", findings.isEmpty() ? "PASS" : "FAIL");
		doc.put("framing", "the reference gateway in front of the engine double (SIMULATED engine), each in its own JVM: resource"
				+ " behaviour of the gateway, the double and the load client over time, never a vLLM number");
		doc.set("settings", settings);
		ObjectNode requests = doc.putObject("requests")
				.put("started", load.started())
				.put("completed", load.completed())
				.put("failed", load.failedCount())
				.put("lost", load.lost());
		ObjectNode reasons = requests.putObject("failed_by_reason");
		load.failures().forEach(reasons::put);
		ArrayNode processes = doc.putArray("processes");
		for (SoakSeries s : series) {
			ObjectNode process = processes.addObject().put("name", s.name()).put("pid", s.pid());
			put(process.putArray("seconds"), s.seconds());
			for (int m = 0; m < SoakSeries.METRICS.length; m++) {
				put(process.putArray(SoakSeries.METRICS[m]), s.metric(m));
			}
			put(process.putArray("at_rest_before"), s.restBefore());
			put(process.putArray("at_rest_after"), s.restAfter());
		}
		ArrayNode failures = doc.putArray("findings");
		findings.forEach(failures::add);
		doc.put("plot", PLOT);
		doc.set("provenance", Provenance.collect(config, Optional.of(target), Map.of()));
		plot(dir.resolve(PLOT), series);
		ArtifactFiles.writeJson(dir.resolve(FILE), doc);
		return doc;
	}

	private static void put(ArrayNode array, double[] values) {
		for (double value : values) {
			if (Double.isNaN(value)) {
				array.addNull();
			}
			else {
				array.add(value);
			}
		}
	}

	/** One chart per metric, one line per process, stacked. */
	private static void plot(Path file, List<SoakSeries> series) throws IOException {
		List<XYChart> charts = new ArrayList<>();
		for (int m = 0; m < SoakSeries.METRICS.length; m++) {
			XYChart chart = new XYChartBuilder().width(900)
					.height(320)
					.title(SoakSeries.METRICS[m] + " over the soak")
					.xAxisTitle("seconds")
					.yAxisTitle(SoakSeries.METRICS[m])
					.build();
			for (SoakSeries s : series) {
				double[] values = s.metric(m);
				if (java.util.Arrays.stream(values).anyMatch(v -> !Double.isNaN(v))) {
					chart.addSeries(s.name(), s.seconds(), values);
				}
			}
			charts.add(chart);
		}
		ArtifactFiles.write(file, out -> BitmapEncoder.saveBitmap(charts, charts.size(), 1, out, BitmapEncoder.BitmapFormat.PNG));
	}
}
