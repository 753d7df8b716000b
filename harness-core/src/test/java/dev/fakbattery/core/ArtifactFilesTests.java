package dev.fakbattery.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ArtifactFiles: atomic writes")
class ArtifactFilesTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("writes JSON and leaves no temp file")
	void writesJson() throws IOException {
		Path target = dir.resolve("sub/a.json");
		ArtifactFiles.writeJson(target, Json.MAPPER.createObjectNode().put("verdict", "PASS"));
		assertThat(Json.MAPPER.readTree(target.toFile()).path("verdict").asText()).isEqualTo("PASS");
		try (var files = Files.list(target.getParent())) {
			assertThat(files).containsExactly(target);
		}
	}

	@Test
	@DisplayName("a crash mid-write leaves no partial file")
	void crashMidWriteLeavesNothing() throws IOException {
		Path target = dir.resolve("a.json");
		assertThatThrownBy(() -> ArtifactFiles.write(target, out -> {
			out.write("{\"verdict\": \"PA".getBytes(StandardCharsets.UTF_8));
			throw new IOException("simulated crash");
		})).isInstanceOf(UncheckedIOException.class).hasMessage("could not write artifact " + target + ": simulated crash");
		try (var files = Files.list(dir)) {
			assertThat(files).isEmpty();
		}
	}

	@Test
	@DisplayName("a crash mid-write keeps the previous artifact whole")
	void crashMidWriteKeepsPrevious() throws IOException {
		Path target = dir.resolve("a.json");
		ArtifactFiles.writeString(target, "{\"verdict\":\"PASS\"}");
		assertThatThrownBy(() -> ArtifactFiles.write(target, out -> {
			out.write("{\"verd".getBytes(StandardCharsets.UTF_8));
			throw new IllegalStateException("killed");
		})).isInstanceOf(UncheckedIOException.class);
		assertThat(Files.readString(target)).isEqualTo("{\"verdict\":\"PASS\"}");
		try (var files = Files.list(dir)) {
			assertThat(files).containsExactly(target);
		}
	}

	@Test
	@DisplayName("a write that would hold a secret, raw or \\u-escaped, is refused: the previous file stays, no temp file")
	void refusesASecret() throws IOException {
		Path target = dir.resolve("a.json");
		ArtifactFiles.writeString(target, "{\"verdict\":\"PASS\"}");
		SecretGuard guard = SecretGuard.of("api.key.env", "the canary", "sk-canary-0123456789");
		var document = Json.MAPPER.createObjectNode().put("note", "sk-canary-0123456789");
		String escaped = Json.MAPPER.writeValueAsString(document).replace("sk-canary", "\\u0073k-canary");

		assertThatThrownBy(() -> ArtifactFiles.writeString(target, escaped, guard)).isInstanceOf(IllegalStateException.class)
				.hasMessage("artifact " + target + " would contain the canary, JSON-escaped; refused to write it");
		assertThatThrownBy(() -> ArtifactFiles.writeJson(target, document, guard))
				.hasMessage("artifact " + target + " would contain the canary, raw; refused to write it");
		assertThat(Files.readString(target)).isEqualTo("{\"verdict\":\"PASS\"}");
		try (var files = Files.list(dir)) {
			assertThat(files).containsExactly(target);
		}
	}

	@Test
	@DisplayName("each write returns the file it wrote, and a copy the file it copied to, with the source's bytes")
	void returnsTheFileWritten() throws IOException {
		Path json = dir.resolve("a.json");
		Path text = dir.resolve("b.txt");
		Path raw = dir.resolve("c.bin");
		assertThat(ArtifactFiles.writeJson(json, Json.MAPPER.createObjectNode().put("verdict", "PASS"))).isEqualTo(json);
		assertThat(ArtifactFiles.writeString(text, "one line")).isEqualTo(text);
		assertThat(ArtifactFiles.write(raw, out -> out.write(new byte[]{ 1, 2, 3 }))).isEqualTo(raw);
		assertThat(raw).hasBinaryContent(new byte[]{ 1, 2, 3 });
		Path copied = dir.resolve("copy/b.txt");
		Files.createDirectories(copied.getParent());
		Files.writeString(copied, "older");
		assertThat(ArtifactFiles.copy(text, copied)).isEqualTo(copied);
		assertThat(copied).hasContent("one line");
	}

	@Test
	@DisplayName("a copy whose source holds the JVM's API key is refused, naming the copy, and nothing is copied")
	void copyRefusesTheKey() throws IOException {
		String key = System.getenv("PATH");
		org.junit.jupiter.api.Assumptions.assumeTrue(key != null && key.length() > 16,
				"needs an environment variable to stand for the key");
		Path source = Files.writeString(dir.resolve("archive.txt"), "before " + key + " after");
		Path target = dir.resolve("copy.txt");
		String before = System.getProperty(HarnessConstants.API_KEY_ENV);
		System.setProperty(HarnessConstants.API_KEY_ENV, "PATH");
		try {
			assertThatThrownBy(() -> ArtifactFiles.copy(source, target)).isInstanceOf(IllegalStateException.class)
					.hasMessageContaining("copy of " + source + " to " + target);
		}
		finally {
			if (before == null) {
				System.clearProperty(HarnessConstants.API_KEY_ENV);
			}
			else {
				System.setProperty(HarnessConstants.API_KEY_ENV, before);
			}
		}
		assertThat(target).doesNotExist();
	}
}
