package dev.fakbattery.core.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TargetIdentity: engine kind, override, unidentified reason, fingerprint, describe, artifact block")
class TargetIdentityTests {

	private static final URI BASE = URI.create("http://h:8000/v1");

	private static TargetIdentity identity(String origin, String kind, String version, String evidence, String ownedBy) {
		return new TargetIdentity(origin, BASE, kind, version, List.of("m"), 4096, "uvicorn", evidence, null, ownedBy, "hermes",
				kind == null ? List.of() : List.of("GET /version: version " + version),
				List.of("GET /v1/models: HTTP 200", "GET /version: HTTP 404"),
				null, null, null);
	}

	@Test
	@DisplayName("engine kind: what the probe identified, else the declaration, else unknown; a declaration never outranks an observation")
	void engineKind() {
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).engineKind()).isEqualTo("vllm");
		assertThat(identity("base.url", null, null, null, null).engineKind()).isEqualTo(TargetIdentity.UNKNOWN);
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).withOverride("sglang").engineKind()).isEqualTo("vllm");
		assertThat(identity("base.url", null, null, null, null).withOverride("llama.cpp").engineKind()).isEqualTo("llama.cpp");
	}

	@Test
	@DisplayName("identity: observed when the probe identified the kind, declared when only engine.identity named it, else unknown")
	void identitySource() {
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).identity()).isEqualTo(TargetIdentity.OBSERVED);
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).withOverride("vllm").identity()).isEqualTo(TargetIdentity.OBSERVED);
		assertThat(identity("base.url", null, null, null, null).withOverride("vllm").identity()).isEqualTo(TargetIdentity.DECLARED);
		assertThat(identity("base.url", null, null, null, null).withOverride("vllm").declared()).isTrue();
		assertThat(identity("base.url", null, null, null, null).identity()).isEqualTo(TargetIdentity.UNKNOWN);
		assertThat(identity("base.url", null, null, null, null).declared()).isFalse();
	}

	@Test
	@DisplayName("a declaration against a positive identification is contradicted, naming both; one that agrees, or names an unidentified engine, is not")
	void declarationContradicted() {
		assertThat(identity("base.url", "llama.cpp", "b5000-abc", null, null).withOverride("vllm").declarationContradicted())
				.hasValue("engine.identity declares vllm but the engine at http://h:8000/v1 identified itself as llama.cpp b5000-abc "
						+ "(GET /version: version b5000-abc)");
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).withOverride("vllm").declarationContradicted()).isEmpty();
		assertThat(identity("base.url", null, null, null, null).withOverride("vllm").declarationContradicted()).isEmpty();
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).declarationContradicted()).isEmpty();
	}

	@Test
	@DisplayName("the declaration is stripped and lower-cased, the probe's findings kept; null, blank or the observed kind leaves the identity as it was")
	void withOverride() {
		TargetIdentity probed = identity("base.url", "sglang", "0.4.9", null, "sglang");
		TargetIdentity overridden = probed.withOverride("  VLLM ");
		assertThat(overridden.identityOverride()).isEqualTo("vllm");
		assertThat(overridden.probedKind()).isEqualTo("sglang");
		assertThat(overridden.withOverride("x").identityOverride()).isEqualTo("x");
		assertThat(overridden).isEqualTo(new TargetIdentity("base.url", BASE, "sglang", "0.4.9", List.of("m"), 4096, "uvicorn", null, null,
				"sglang", "hermes", List.of("GET /version: version 0.4.9"), List.of("GET /v1/models: HTTP 200", "GET /version: HTTP 404"),
				"vllm", null, null));
		assertThat(probed.withOverride(null)).isSameAs(probed);
		assertThat(probed.withOverride(" \t")).isSameAs(probed);
		assertThat(probed.withOverride(" SGLang")).as("agrees with the observation").isSameAs(probed);
	}

	@Test
	@DisplayName("engine double: only when evidence says so, and simulatedBecause names the base URL and the evidence")
	void engineDouble() {
		TargetIdentity twin = identity("base.url", "vllm", "0.11.0+engine-double", "its version says so", null);
		assertThat(twin.engineDouble()).isTrue();
		assertThat(twin.simulatedBecause()).hasValue("the engine at http://h:8000/v1 is the engine double: its version says so");
		TargetIdentity real = identity("base.url", "vllm", "0.11.0", null, null);
		assertThat(real.engineDouble()).isFalse();
		assertThat(real.simulatedBecause()).isEmpty();
	}

	@Test
	@DisplayName("the engine double is never called the engine it imitates: its kind is engine-double, what it imitates its dialect")
	void doubleIsNoEngine() {
		TargetIdentity twin = identity("base.url", "vllm", "0.11.0+engine-double", "its version says so", null);
		assertThat(twin.engineKind()).isEqualTo(TargetIdentity.ENGINE_DOUBLE);
		assertThat(twin.dialect()).isEqualTo("vllm");
		assertThat(twin.fingerprint()).startsWith("base.url|engine-double|");
		ObjectNode node = Json.MAPPER.createObjectNode();
		twin.writeTo(node);
		assertThat(node.path("engine_kind").asText()).isEqualTo("engine-double");
		assertThat(node.path("dialect").asText()).isEqualTo("vllm");
		assertThat(node.path("engine_double").asBoolean()).isTrue();

		TargetIdentity real = identity("base.url", "sglang", "0.5.4", null, null);
		assertThat(real.engineKind()).isEqualTo("sglang");
		assertThat(real.dialect()).isEqualTo("sglang");
		assertThat(identity("base.url", null, null, null, null).dialect()).isEqualTo(TargetIdentity.UNKNOWN);
	}

	@Test
	@DisplayName("unidentified: the reason names the base URL, what was probed, and owned_by as a mere claim when present")
	void unidentified() {
		String none = "unidentified engine at http://h:8000/v1: no version from /version, /get_server_info or /props, no vllm:, "
				+ "sglang: or llamacpp: metric families on /metrics and no system_fingerprint of an engine on /v1";
		assertThat(identity("base.url", null, null, null, "vllm").unidentified()).hasValue(none
				+ " (owned_by vllm on /v1/models is a claim any proxy relays, not evidence); probed GET /v1/models: HTTP 200; GET /version: HTTP 404");
		assertThat(identity("base.url", null, null, null, null).unidentified())
				.hasValue(none + "; probed GET /v1/models: HTTP 200; GET /version: HTTP 404");
	}

	@Test
	@DisplayName("unidentified: evidence that names two engines identifies none, and the reason names each piece")
	void conflictingEvidence() {
		TargetIdentity id = new TargetIdentity("base.url", BASE, null, null, List.of("m"), null, null, null, null, null, null, List.of(),
				List.of("GET /props: HTTP 200"), null, null,
				"GET /props: build_info b1 says llama.cpp; GET /metrics: 2 metric families named vllm:* says vllm");
		assertThat(id.unidentified()).hasValue("unidentified engine at http://h:8000/v1: its answers name different engines (GET /props: "
				+ "build_info b1 says llama.cpp; GET /metrics: 2 metric families named vllm:* says vllm); probed GET /props: HTTP 200");
		ObjectNode node = Json.MAPPER.createObjectNode();
		id.writeTo(node);
		assertThat(node.path("evidence_conflict").asText()).contains("says llama.cpp", "says vllm");
	}

	@Test
	@DisplayName("identified by the probe, by being the double, or by the override: not unidentified")
	void identifiedEachWay() {
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).unidentified()).isEmpty();
		assertThat(identity("base.url", null, null, "its Server header says so", null).unidentified()).isEmpty();
		assertThat(identity("base.url", null, null, null, null).withOverride("vllm").unidentified()).isEmpty();
	}

	@Test
	@DisplayName("fingerprint: origin, kind, version, models and base URL; without the base URL for the embedded double")
	void fingerprint() {
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).fingerprint()).isEqualTo("base.url|vllm|0.11.0|[m]|http://h:8000/v1");
		assertThat(identity(TargetIdentity.EMBEDDED, "vllm", "0.11.0+engine-double", "started here", null).fingerprint())
				.isEqualTo("embedded|engine-double|0.11.0+engine-double|[m]");
		assertThat(identity("base.url", null, null, null, null).withOverride("sglang").fingerprint())
				.isEqualTo("base.url|sglang|null|[m]|http://h:8000/v1");
	}

	@Test
	@DisplayName("describe: kind and version at the base URL; the double named with its dialect; a declared kind said so; no version when none")
	void describe() {
		assertThat(identity("base.url", "vllm", "0.11.0", null, null).describe())
				.isEqualTo("vllm 0.11.0 at http://h:8000/v1 (base.url), serving [m]");
		assertThat(identity("embedded", "sglang", "0.4.9+engine-double", "started here", null).describe())
				.isEqualTo("engine double (sglang dialect) 0.4.9+engine-double at http://h:8000/v1 (embedded), serving [m]");
		assertThat(identity("engine.cmd", null, null, null, null).describe())
				.isEqualTo("unknown at http://h:8000/v1 (engine.cmd), serving [m]");
		assertThat(identity("base.url", null, null, null, null).withOverride("vllm").describe())
				.isEqualTo("vllm (declared by -Dengine.identity, not observed) at http://h:8000/v1 (base.url), serving [m]");
	}

	@Test
	@DisplayName("writeTo: every field of the target.engine block")
	void writeTo() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		new TargetIdentity("base.url", BASE, "vllm", "0.11.0", List.of("a", "b"), 4096, "uvicorn", "its Server header says so", "slow",
				"vllm", "hermes", List.of("GET /version: version 0.11.0"), List.of("GET /v1/models: HTTP 200"), null, null, null)
				.withOverride("sglang")
				.writeTo(node);
		assertThat(node.toString()).isEqualTo(Json.MAPPER.createObjectNode()
				.put("origin", "base.url")
				.put("base_url", "http://h:8000/v1")
				.put("engine_kind", "engine-double")
				.put("dialect", "vllm")
				.put("identity", "observed")
				.put("engine_version", "0.11.0")
				.set("served_models", Json.MAPPER.createArrayNode().add("a").add("b"))
				.toString()
				.replaceAll("}$", "") + ",\"context_length\":4096,\"server_header\":\"uvicorn\",\"owned_by\":\"vllm\","
				+ "\"tool_parser\":\"hermes\",\"identified_by\":[\"GET /version: version 0.11.0\"],\"identity_override\":\"sglang\","
				+ "\"probed\":[\"GET /v1/models: HTTP 200\"],\"engine_double\":true,\"engine_double_evidence\":\"its Server header says so\","
				+ "\"gateway_evidence\":null,\"evidence_conflict\":null,\"probe_problem\":\"slow\",\"fingerprint\":\"base.url|engine-double|0.11.0|[a, b]|http://h:8000/v1\"}");
	}

	@Test
	@DisplayName("writeTo: absent values are JSON null, empty lists empty arrays")
	void writeToAbsent() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		new TargetIdentity("base.url", BASE, null, null, List.of(), null, null, null, null, null, null, List.of(), List.of(), null, null,
				null)
				.writeTo(node);
		JsonNode doc = node;
		assertThat(doc.path("context_length").isNull()).isTrue();
		assertThat(doc.has("context_length")).isTrue();
		assertThat(doc.path("engine_kind").asText()).isEqualTo("unknown");
		assertThat(doc.path("dialect").asText()).isEqualTo("unknown");
		assertThat(doc.path("engine_version").isNull()).isTrue();
		assertThat(doc.path("served_models").isArray() && doc.path("served_models").isEmpty()).isTrue();
		assertThat(doc.path("identified_by").isArray() && doc.path("identified_by").isEmpty()).isTrue();
		assertThat(doc.path("engine_double").asBoolean(true)).isFalse();
		assertThat(doc.path("identity_override").isNull()).isTrue();
		assertThat(doc.path("identity").asText()).isEqualTo("unknown");
	}

	@Test
	@DisplayName("the lists are copies: changing the caller's list later changes nothing")
	void listsAreCopied() {
		List<String> models = new java.util.ArrayList<>(List.of("m"));
		TargetIdentity id = new TargetIdentity("base.url", BASE, null, null, models, null, null, null, null, null, null, List.of(),
				List.of(),
				null, null, null);
		models.add("n");
		assertThat(id.servedModels()).containsExactly("m");
	}
}
