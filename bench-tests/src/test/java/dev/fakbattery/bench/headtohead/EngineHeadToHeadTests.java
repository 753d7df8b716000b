package dev.fakbattery.bench.headtohead;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.NodeOnly;
import dev.fakbattery.api.TaxRung;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.core.load.ClosedLoop;
import dev.fakbattery.core.load.LoadResult;
import dev.fakbattery.core.load.LoadRunner;
import dev.fakbattery.core.load.LoadSummary;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.load.TargetClient;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.core.target.TargetProbe;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Engine head-to-head rows (fak's section 2): with {@code engine.compare}, one row per engine,
 * the same streamed closed-loop load on each, and each row carrying its precision and batching
 * regime (a row without them is refused before anything runs). Optional: not a required artifact.
 */
@TaxRung
@NodeOnly
@RungArtifact(ArtifactId.ENGINE_HEAD_TO_HEAD)
@DisplayName("engine head-to-head")
class EngineHeadToHeadTests {

	static final int CONCURRENCY = 8;
	static final int REQUESTS = 32;

	@Test
	@DisplayName("one row per engine of engine.compare, same load, disclosure on every row")
	void engineRows(RungRecorder run) {
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
			ObjectNode node = artifactRows.addObject()
					.put("engine", row.engine())
					.put("base_url", row.baseUrl().toString())
					.put("precision", row.precision())
					.put("batching_regime", row.batching());
			TargetIdentity identity = TargetProbe.identify(row.baseUrl(), HarnessConstants.ENGINE_COMPARE,
					run.config().string(HarnessConstants.API_KEY_ENV).map(System::getenv));
			node.put("engine_version", identity.engineVersion());
			identity.writeTo(node.putObject("target"));
			identity.simulatedBecause().ifPresent(why -> run.simulated("engine " + row.engine() + ": " + why));
			if (!run.config().profile().embeddedTargetAllowed()) {
				identity.unidentified()
						.ifPresent(why -> run.pending(row.engine() + ".identity", why, "compare engines that identify "
								+ "themselves (vLLM /version, SGLang /get_server_info, llama.cpp /props, or their own /metrics families)"));
			}
			try (TargetClient client = TargetClient.open(row.engine(), row.baseUrl())) {
				LoadResult result = LoadRunner.run(client, payload, new ClosedLoop(CONCURRENCY, REQUESTS, 2, Duration.ofMinutes(5)),
						Progress.start("engine-compare", row.engine(), REQUESTS));
				LoadSummary summary = LoadSummary.of(result, java.util.Optional.empty());
				summary.writeTo(node.putObject("load"));
				run.check(row.engine() + ".measured", result.failed().isEmpty() && result.ok().size() == REQUESTS,
						REQUESTS + " streamed requests at concurrency " + CONCURRENCY + " all answered",
						result.ok().size() + " ok, " + result.failed().size() + " failed");
				headline.append(headline.isEmpty() ? "" : "; ")
						.append(row.engine())
						.append(' ')
						.append(row.precision())
						.append('/')
						.append(row.batching())
						.append(String.format(" %.1f tok/s", result.outputThroughput()));
			}
		}
		run.headline(headline.toString());
	}
}
