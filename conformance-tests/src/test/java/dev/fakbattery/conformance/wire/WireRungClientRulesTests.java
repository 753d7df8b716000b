package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.api.WireRung;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The wire rung's client rules recorded on a gateway whose outcome is known (the client self-test's ping event, which
 * LangChain4j fails), without node ({@code kit.node.clients=off}): C01's failure is a failed check of
 * {@code wire-conformance.json} with rule, target and reason, and fails the rung; C02..C04 are in
 * {@code client_rules} skipped, naming the key, and no check.
 */
@DisplayName("wire rung self-test: the client rules are rule runs of the artifact")
@Isolated
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class WireRungClientRulesTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a gateway LangChain4j cannot read fails C01 in wire-conformance.json and the rung; without node C02..C04 are pending, naming why")
	void clientRuleFailureRecorded() throws IOException {
		EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(RungTestCase.class, "brokenClients", RungRecorder.class.getName()))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(HarnessConstants.EXPERIMENTS_DIR, dir.toString(),
						HarnessConstants.PROFILE, "battery", HarnessConstants.ALLOW_PENDING, "true", ConfigKeys.KIT_NODE_CLIENTS.name(),
						"off")))
				.execute()
				.testEvents()
				.assertStatistics(stats -> stats.failed(1));
		JsonNode doc = Json.MAPPER.readTree(dir.resolve(ArtifactId.WIRE_CONFORMANCE.fileName()).toFile());
		assertThat(doc.path("verdict").asText()).isEqualTo("FAIL");
		List<String> runs = new ArrayList<>();
		doc.path("client_rules")
				.forEach(r -> runs.add(r.path("rule").asText().substring(0, 3) + " [" + r.path("target").asText() + "] "
						+ r.path("outcome").asText()));
		assertThat(runs).containsExactlyInAnyOrder("C01 [vllm stream] FAIL", "C02 [vllm stream] PENDING_MEASUREMENT",
				"C03 [vllm stream] PENDING_MEASUREMENT", "C04 [vllm stream] PENDING_MEASUREMENT");
		doc.path("client_rules").forEach(r -> assertThat(r.path("detail").asText()).isNotEmpty());
		JsonNode c01 = StreamSupport.stream(doc.path("client_rules").spliterator(), false)
				.filter(r -> r.path("rule").asText().startsWith("C01 "))
				.findFirst()
				.orElseThrow();
		assertThat(c01.path("rule").asText()).isEqualTo("C01 LangChain4j's OpenAI client reads every answer as the kit does");
		assertThat(c01.path("detail").asText())
				.startsWith("C01 [vllm stream]: 9 failing cases\n")
				.contains("  - C01 [vllm stream] on broken: sends event: ping: expected ")
				.contains("Unrecognized token 'keep'");
		doc.path("client_rules")
				.forEach(r -> assertThat(r.path("detail").asText()).satisfiesAnyOf(d -> assertThat(d).startsWith("C01 "),
						d -> assertThat(d).endsWith("not run: Not configured: kit.node.clients=off")));
		assertThat(doc.path("acceptance").path("C01 [vllm stream]").path("status").asText()).isEqualTo("FAIL");
		assertThat(doc.path("acceptance").has("C02 [vllm stream]")).as("a skipped client rule is no check").isFalse();
		assertThat(doc.path("client_rules_summary").asText())
				.isEqualTo("0 client rule runs passed, 1 failed, 3 pending, 0 not judged, 0 not applicable");
		assertThat(doc.path("classes").path("clients").toString())
				.isEqualTo("{\"claimed\":true,\"passed\":0,\"failed\":1,\"pending\":3,\"not_judged\":0,\"not_applicable\":0}");
		assertThat(doc.path("classes_summary").asText()).isEqualTo("clients 0/4 rules passed (1 failed, 3 pending)");
		assertThat(doc.path("pending").toString()).as("the pending client rules keep the rung from a pass, naming why")
				.contains("client_rules_pending")
				.contains("C02 [vllm stream]: PENDING_MEASUREMENT: C02 [vllm stream] not run: Not configured: kit.node.clients=off");
	}

	// -------------------------------------------------------------------------

	/** The wire rung's recording of the client rules over a known gateway, run as a rung so its artifact is written as the battery's is. */
	@WireRung
	@RungArtifact(ArtifactId.WIRE_CONFORMANCE)
	static class RungTestCase {

		@Test
		void brokenClients(RungRecorder run) {
			WireRungTests.classes(run, List.of(WireRungTests.clientRules(run, BrokenClientLibraryTests.PingEventTestCase.class)));
			run.headline(run.body().path("client_rules_summary").asText());
		}
	}
}
