package dev.fakbattery.api;

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
		Path file = ArtifactFiles.writeString(dir.resolve("a.json"), "{\"generated_at\": \"2026-06-26T02:31:12Z\", \"provenance\": {\"producer\": \"fak\"}}");
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
			assertThat(PreProduced.fixturesAllowed(config(Map.of(HarnessConstants.FIXTURES_ALLOWED, "true", HarnessConstants.PROFILE, profile))))
				.as(profile).isFalse();
		}
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}
}
