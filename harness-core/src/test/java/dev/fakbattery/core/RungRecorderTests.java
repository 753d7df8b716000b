package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RungRecorder: what a rung records before its artifact is written")
class RungRecorderTests {

	private static RungRecorder run(Map<String, String> config) {
		return new RungRecorder(ArtifactId.RUN_CONTRACT, HarnessConfig.of(name -> Optional.ofNullable(config.get(name))));
	}

	@Test
	@DisplayName("a check returns its outcome, passed or failed, product or not")
	void checkReturnsItsOutcome() {
		RungRecorder run = run(Map.of());
		assertThat(run.check("a", true, "x", "x")).isTrue();
		assertThat(run.check("b", false, "x", "y")).isFalse();
		assertThat(run.check("c", true, "x", "x", true)).isTrue();
		assertThat(run.check("d", false, "200", "500", true)).isFalse();
		assertThat(run.checks()).extracting(Check::name, Check::passed, Check::product)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("a", true, false),
						org.assertj.core.groups.Tuple.tuple("b", false, false),
						org.assertj.core.groups.Tuple.tuple("c", true, true), org.assertj.core.groups.Tuple.tuple("d", false, true));
	}

	@Test
	@DisplayName("a measured value is recorded and returned, with its interval only where the interval is bounded")
	void measured() {
		RungRecorder run = run(Map.of());
		Measurement.Measured plain = run.measured("p50_ms", 12.5, "ms", "client");
		assertThat(plain.value()).isEqualTo(12.5);
		Measurement.Measured bounded = run.measured("tax", 1.02, "ratio", "witness",
				ConfidenceInterval.ofBounds("median ratio", 1.02, 1.01, 1.03, 0.95));
		assertThat(bounded.ci()).hasValueSatisfying(ci -> assertThat(ci.hi()).isEqualTo(1.03));
		Measurement.Measured unbounded = run.measured("tax2", 1.02, "ratio", "witness",
				ConfidenceInterval.undefined("median ratio", "too few samples", 0.95, 0, 0));
		assertThat(unbounded.ci()).isEmpty();
		assertThat(run.measurements()).containsExactly(plain, bounded, unbounded);
		assertThat(run.pendings()).isEmpty();
	}

	@Test
	@DisplayName("a URL or value not configured is recorded as pending, naming the key and the fix; a configured one is returned")
	void requireConfig() {
		RungRecorder missing = run(Map.of());
		assertThat(missing.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL")).isEmpty();
		assertThat(missing.requireConfig("model", "the served model", "glm-5.2")).isEmpty();
		assertThat(missing.pendings()).containsExactly(
				new Measurement.Pending(HarnessConstants.BASE_URL, "raw engine base URL is not configured",
						"set -D" + HarnessConstants.BASE_URL + "=http://HOST:8000/v1"),
				new Measurement.Pending("model", "the served model is not configured", "set -Dmodel=glm-5.2"));

		RungRecorder given = run(Map.of(HarnessConstants.BASE_URL, "http://127.0.0.1:8000/v1", "model", "glm-5.2"));
		assertThat(given.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL")).hasValue(URI.create("http://127.0.0.1:8000/v1"));
		assertThat(given.requireConfig("model", "the served model", "glm-5.2")).hasValue("glm-5.2");
		assertThat(given.pendings()).isEmpty();
	}

	@Test
	@DisplayName("a check not judged is returned as the pending measurement it makes, and listed apart from the checks")
	void notJudged() {
		RungRecorder run = run(Map.of());
		Measurement.Pending pending = run.notJudged("engine", "engine vllm", "vllm, declared by -Dengine.identity", "declared only",
				"let the engine identify itself");
		assertThat(pending).isEqualTo(new Measurement.Pending("engine", "check engine not judged: declared only",
				"let the engine identify itself"));
		assertThat(run.pendings()).containsExactly(pending);
		assertThat(run.notJudgedChecks()).extracting(Check::name).containsExactly("engine");
		assertThat(run.checks()).isEmpty();
	}

	@Test
	@DisplayName("an invalid measurement is returned as its pending and listed among the invalidations")
	void invalid() {
		RungRecorder run = run(Map.of());
		Measurement.Pending pending = run.invalid("latency_tax", "client lag p99 1830 us > 1000 us", "run on a quieter host");
		assertThat(pending.missing()).isEqualTo("invalid measurement, its own instrument says so: client lag p99 1830 us > 1000 us");
		assertThat(run.invalidations()).containsExactly(pending);
		assertThat(run.pendings()).containsExactly(pending);
	}

	@Test
	@DisplayName("headline, workload, provenance overrides and attachments are kept as given")
	void keptAsGiven() {
		RungRecorder run = run(Map.of());
		assertThat(run.headline()).isEmpty();
		assertThat(run.workload()).isEmpty();
		run.headline("tax 1.02");
		run.workload("8 streamed samples per arm, max_tokens 64");
		run.provenance("engine_version", "0.11.0");
		run.attach(Path.of("ratios.png"));
		assertThat(run.headline()).hasValue("tax 1.02");
		assertThat(run.workload()).hasValue("8 streamed samples per arm, max_tokens 64");
		assertThat(run.provenanceOverrides()).containsExactly(Map.entry("engine_version", "0.11.0"));
		assertThat(run.attachments()).containsExactly(Path.of("ratios.png"));
	}

	@Test
	@DisplayName("the artifact validators run once: a second validation adds no check")
	void validatorsRunOnce() {
		RungRecorder run = run(Map.of());
		run.validateArtifact(draft -> List.of(new Check("schema", draft.has("schema"), "a schema", "none")));
		run.validate(Json.MAPPER.createObjectNode());
		run.validate(Json.MAPPER.createObjectNode());
		assertThat(run.checks()).extracting(Check::name).containsExactly("schema");
	}
}
