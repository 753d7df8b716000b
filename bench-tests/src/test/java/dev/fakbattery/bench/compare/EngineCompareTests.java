package dev.fakbattery.bench.compare;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.TaxRung;
import dev.fakbattery.api.load.ChatPayload;
import dev.fakbattery.api.load.ClosedLoop;
import dev.fakbattery.api.load.LoadResult;
import dev.fakbattery.api.load.LoadRunner;
import dev.fakbattery.api.load.LoadSummary;
import dev.fakbattery.api.load.Progress;
import dev.fakbattery.api.load.TargetClient;
import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Engine head-to-head rows (the seed's section 2): with {@code engine.compare}, one row per engine,
 * the same streamed closed-loop load on each, and each row carrying its precision and batching
 * regime (a row without them is refused before anything runs). Optional: not a required artifact.
 */
@TaxRung
@NodeOnly
@RungArtifact(ArtifactId.ENGINE_COMPARE)
@DisplayName("engine head-to-head")
class EngineCompareTests {

	static final int CONCURRENCY = 8;
	static final int REQUESTS = 32;

	@Test
	@DisplayName("one row per engine of engine.compare, same load, disclosure on every row")
	void engineRows(RungRun run) {
		List<EngineRow> rows = EngineRow.parse(run.config());
		Assumptions.assumeFalse(rows.isEmpty(), "engine.compare is not set: no engines to compare (optional rung)");
		String model = run.requireConfig(HarnessConstants.MODEL, "served model name", "NAME").orElse(null);
		if (model == null) {
			return;
		}
		ChatPayload payload = ChatPayload.streaming(model, ChatPayload.COUNTING_PROMPT, 64);
		ArrayNode artifactRows = run.body().putArray("rows");
		StringBuilder headline = new StringBuilder();
		for (EngineRow row : rows) {
			ObjectNode node = artifactRows.addObject().put("engine", row.engine()).put("base_url", row.baseUrl().toString())
				.put("precision", row.precision()).put("batching_regime", row.batching());
			String version = version(row.baseUrl());
			node.put("engine_version", version);
			if (EngineDoubleMarker.isEngineDouble(version)) {
				run.simulated("engine " + row.engine() + " at " + row.baseUrl() + " reports itself as the engine double (" + version + ")");
			}
			try (TargetClient client = TargetClient.open(row.engine(), row.baseUrl())) {
				LoadResult result = LoadRunner.run(client, payload, new ClosedLoop(CONCURRENCY, REQUESTS, 2, Duration.ofMinutes(5)),
						Progress.start("engine-compare", row.engine(), REQUESTS));
				LoadSummary summary = LoadSummary.of(result, java.util.Optional.empty());
				summary.writeTo(node.putObject("load"));
				run.check(row.engine() + ".measured", result.failed().isEmpty() && result.ok().size() == REQUESTS,
						REQUESTS + " streamed requests at concurrency " + CONCURRENCY + " all answered",
						result.ok().size() + " ok, " + result.failed().size() + " failed");
				headline.append(headline.isEmpty() ? "" : "; ").append(row.engine()).append(' ').append(row.precision()).append('/')
					.append(row.batching()).append(String.format(" %.1f tok/s", result.outputThroughput()));
			}
		}
		run.headline(headline.toString());
	}

	private static String version(URI base) {
		String root = base.toString().substring(0, base.toString().length() - "/v1".length());
		try {
			HttpResponse<String> reply = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(root + "/version"))
				.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
			return WireJson.read(reply.body()).map(j -> j.path("version").asText(null)).orElse(null);
		}
		catch (java.io.IOException e) {
			return null;
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return null;
		}
	}
}
