package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("llama.cpp image: what -Pllamacpp prepared, FROM scratch, tagged by content")
class LlamaCppImageTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("without -Pllamacpp's folder: names the missing file and the command")
	void missing() {
		assertThatThrownBy(() -> LlamaCppImage.image(dir)).isInstanceOf(IllegalStateException.class)
				.hasMessage(dir.resolve("llama-server") + " is missing: the image is built from what -Pllamacpp prepares. Fix: run "
						+ "./mvnw verify -Pllamacpp,container (both profiles)");
	}

	@Test
	@DisplayName("the server at /llama-server (its entrypoint), the model under /models, /slots and /tmp")
	void files() throws IOException {
		Assumptions.assumeTrue(RootfsImageTests.onPath("ldd"), "no ldd on PATH here: the server's libraries cannot be listed");
		Files.createSymbolicLink(dir.resolve("llama-server"), Path.of("/bin/sh"));
		Files.write(dir.resolve("tiny-random-llama.gguf"), new byte[]{ 'G', 'G', 'U', 'F' });
		RootfsImage image = LlamaCppImage.image(dir);
		assertThat(image.tag()).matches("fak-battery/llamacpp:[0-9a-f]{12}");
		assertThat(image.files()).containsEntry("/llama-server", Path.of("/bin/sh").toRealPath())
				.containsEntry("/models/tiny-random-llama.gguf", dir.resolve("tiny-random-llama.gguf").toRealPath());
		assertThat(image.dockerfile()).endsWith("ENTRYPOINT [\"/llama-server\"]\n");
		assertThat(new String(image.context(), java.nio.charset.StandardCharsets.ISO_8859_1)).contains("rootfs/slots/", "rootfs/tmp/");
	}
}
