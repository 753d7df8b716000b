package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("PreProduced: an input the run did not produce counts only with its provenance; fixtures only in self-tests")
class PreProducedTests {

	private static final String SHA = "0123456789abcdef".repeat(4);

	@TempDir
	Path dir;

	@Test
	@DisplayName("the artifact's own fields, then its provenance object, then the folder's PROVENANCE.json")
	void sources() {
		Path file = ArtifactFiles.writeString(dir.resolve("a.json"),
				"{\"generated_at\": \"2026-06-26T02:31:12Z\", \"provenance\": {\"producer\": \"fak\"}}");
		ArtifactFiles.writeString(dir.resolve(PreProduced.PROVENANCE_FILE), "{\"producer\": \"other\", \"version\": \"v1\", "
				+ "\"generated_at\": \"2020-01-01T00:00:00Z\", \"binary_sha256\": \"" + SHA + "\"}");
		PreProduced.Entry entry = PreProduced.read(dir, file, true);
		assertThat(entry.complete()).isTrue();
		assertThat(entry.fields().path("producer").asText()).isEqualTo("fak");
		assertThat(entry.fields().path("version").asText()).isEqualTo("v1");
		assertThat(entry.fields().path("generated_at").asText()).isEqualTo("2026-06-26T02:31:12Z");
		assertThat(entry.fields().path("binary_sha256").asText()).isEqualTo(SHA);
	}

	@Test
	@DisplayName("each missing or malformed field is named; the artifact's own run may stand in for the binary hash")
	void missing() {
		Path file = ArtifactFiles.writeString(dir.resolve("a.json"), "{\"generated_at\": \"yesterday\", \"binary_sha256\": \"abc\"}");
		assertThat(PreProduced.read(dir, file, true).missing()).containsExactly("producer", "version",
				"generated_at (not an ISO-8601 instant: yesterday)", "binary_sha256 (not a sha256: abc)");
		Path bare = ArtifactFiles.writeString(dir.resolve("b.json"), "{}");
		assertThat(PreProduced.read(dir, bare, true).missing()).containsExactly("producer", "version", "generated_at",
				"binary_sha256 (or the artifact's own run.run_id and run.git_commit)");
		assertThat(PreProduced.read(dir, bare, false).missing()).containsExactly("producer", "version", "generated_at");
		Path run = ArtifactFiles.writeString(dir.resolve("c.json"), "{\"producer\": \"fak-battery\", \"version\": \"0.5\", "
				+ "\"generated_at\": \"2026-11-30T10:00:00Z\", \"run\": {\"run_id\": \"20261130T100000Z-3fa9c2\", \"git_commit\": \"c1f4b18\"}}");
		PreProduced.Entry entry = PreProduced.read(dir, run, true);
		assertThat(entry.complete()).isTrue();
		assertThat(entry.fields().path("run_id").asText()).isEqualTo("20261130T100000Z-3fa9c2");
	}

	@Test
	@DisplayName("a FIXTURE file in the folder, or a _fixture field in a file, marks a test fixture; nothing else does")
	void fixtureMarker() {
		Path file = ArtifactFiles.writeString(dir.resolve("x/a.json"), "{\"producer\": \"fak\"}");
		assertThat(PreProduced.fixtureMarker(dir.resolve("x"), List.of(file))).isEmpty();
		ArtifactFiles.writeString(dir.resolve("x/b.json"), "{\"_fixture\": \"FIXTURE: constructed\"}");
		assertThat(PreProduced.fixtureMarker(dir.resolve("x"), List.of(file, dir.resolve("x/b.json"))))
				.hasValue("_fixture field in " + dir.resolve("x/b.json"));
		ArtifactFiles.writeString(dir.resolve("x/FIXTURE"), "test fixture, not a measurement");
		assertThat(PreProduced.fixtureMarker(dir.resolve("x"), List.of())).hasValue("FIXTURE file " + dir.resolve("x/FIXTURE"));
	}

	@Test
	@DisplayName("fixtures are allowed only with fixtures.allowed=true in the default profile (the self-tests)")
	void fixturesAllowed() {
		assertThat(PreProduced.fixturesAllowed(config(Map.of(HarnessConstants.FIXTURES_ALLOWED, "true")))).isTrue();
		assertThat(PreProduced.fixturesAllowed(config(Map.of()))).isFalse();
		for (String profile : List.of("battery", "gpu", "llamacpp", "gate")) {
			assertThat(PreProduced
					.fixturesAllowed(config(Map.of(HarnessConstants.FIXTURES_ALLOWED, "true", HarnessConstants.PROFILE, profile))))
					.as(profile)
					.isFalse();
		}
	}

	@Test
	@DisplayName("a fixture is refused with a failed check naming the marker and the profile, unless the self-tests allow it")
	void refuseFixture() {
		Path folder = dir.resolve("floors");
		Path file = ArtifactFiles.writeString(folder.resolve("a.json"), "{\"producer\": \"fak\"}");
		RungRecorder clean = new RungRecorder(ArtifactId.TAX_WITNESS, config(Map.of(HarnessConstants.PROFILE, "gpu")));
		assertThat(PreProduced.refuseFixture(clean, "floors.dir", folder, List.of(file))).as("no marker").isFalse();
		assertThat(clean.checks()).isEmpty();

		ArtifactFiles.writeString(folder.resolve(PreProduced.FIXTURE_FILE), "test fixture, not a measurement");
		RungRecorder refused = new RungRecorder(ArtifactId.TAX_WITNESS, config(Map.of(HarnessConstants.PROFILE, "gpu",
				HarnessConstants.FIXTURES_ALLOWED, "true")));
		assertThat(PreProduced.refuseFixture(refused, "floors.dir", folder, List.of(file))).as("a marker under gpu").isTrue();
		assertThat(refused.checks()).singleElement().satisfies(check -> {
			assertThat(check.name()).isEqualTo("input_not_a_fixture");
			assertThat(check.passed()).isFalse();
			assertThat(check.expected()).isEqualTo("-Dfloors.dir names measured artifacts, not test fixtures");
			assertThat(check.observed()).isEqualTo("test fixture, not a measurement: FIXTURE file " + folder.resolve("FIXTURE")
					+ "; point -Dfloors.dir at real artifacts (fixtures.allowed is honoured only by the self-tests, in the default "
					+ "profile; profile gpu)");
		});

		RungRecorder selfTest = new RungRecorder(ArtifactId.TAX_WITNESS, config(Map.of(HarnessConstants.FIXTURES_ALLOWED, "true")));
		assertThat(PreProduced.refuseFixture(selfTest, "floors.dir", folder, List.of(file))).as("a marker in a self-test").isFalse();
		assertThat(selfTest.checks()).isEmpty();
	}

	@Test
	@DisplayName("the pre_produced block lists each artifact with its provenance; only an incomplete one is pending, naming what is missing")
	void record() {
		Path good = ArtifactFiles.writeString(dir.resolve("good.json"), "{\"producer\": \"fak\", \"version\": \"0.5\", "
				+ "\"generated_at\": \"2026-11-30T10:00:00Z\"}");
		Path bare = ArtifactFiles.writeString(dir.resolve("bare.json"), "{\"producer\": \"fak\"}");
		RungRecorder run = new RungRecorder(ArtifactId.TAX_WITNESS, config(Map.of()));
		PreProduced.record(run, dir, List.of(PreProduced.read(dir, good, false), PreProduced.read(dir, bare, false)),
				"pass -Dfloors.dir=DIR");
		var block = run.body().path(PreProduced.FIELD);
		assertThat(block.path("source").asText()).isEqualTo(dir.toString());
		assertThat(block.path("fixture").isNull()).isTrue();
		assertThat(block.path("artifacts")).hasSize(2);
		assertThat(block.path("artifacts").get(0).path("file").asText()).isEqualTo(good.toString());
		assertThat(block.path("artifacts").get(0).path("version").asText()).isEqualTo("0.5");
		assertThat(block.path("artifacts").get(0).path("missing").isEmpty()).isTrue();
		assertThat(block.path("artifacts").get(1).path("missing").toString()).isEqualTo("[\"version\",\"generated_at\"]");
		assertThat(run.pendings()).singleElement().satisfies(pending -> {
			assertThat(pending.name()).isEqualTo("pre_produced.bare.json");
			assertThat(pending.missing()).isEqualTo("pre-produced " + bare + " has no provenance: missing version, generated_at");
			assertThat(pending.howToProvide()).isEqualTo("pass -Dfloors.dir=DIR");
		});
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}
}
