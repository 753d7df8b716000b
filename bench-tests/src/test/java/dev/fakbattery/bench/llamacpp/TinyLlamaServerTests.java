package dev.fakbattery.bench.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java-written model in the real {@code llama-server}, when one is on this machine ({@code -Dllamacpp.server}, {@code PATH},
 * or the build script's cache) with the llama.cpp source beside it; skipped, naming what is missing, otherwise. A few seconds.
 */
@DisplayName("tiny llama GGUF in the real llama-server")
class TinyLlamaServerTests {

	private static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache/fak-battery/llamacpp/node-llama-cpp-3.22.1");

	@TempDir
	Path dir;

	@Test
	@DisplayName("llama-server loads it, reports its shape, and generates max_tokens tokens")
	void serves() throws Exception {
		Path server = find(System.getProperty("llamacpp.server"), "llama-server", CACHE.resolve("build/bin/llama-server"));
		Path source = Optional.ofNullable(System.getProperty("llamacpp.source")).map(Path::of).orElse(CACHE.resolve("llama.cpp"));
		Assumptions.assumeTrue(Files.isRegularFile(source.resolve(LlamaCppSetup.VOCAB)),
				"no llama.cpp source with " + LlamaCppSetup.VOCAB + " at " + source
						+ " (-Dllamacpp.source, or run tools/llamacpp/build-llama-server.sh)");
		Path model = TinyLlama.write(source.resolve(LlamaCppSetup.VOCAB), Optional.of(source.resolve(LlamaCppSetup.TEMPLATE)),
				Optional.of("<|im_end|>"), TinyLlama.Spec.random(1), dir.resolve("tiny.gguf"));
		try (ManagedProcess process = ManagedProcess.startOnFreePort("llama-server", port -> "'" + server + "' -m '" + model
				+ "' --host 127.0.0.1 --port " + port + " -c 1024 -np 1 -t 1 --jinja --no-webui -a tiny", port -> dir.resolve("server.log"),
				port -> List.of(URI.create("http://127.0.0.1:" + port + "/health")), Duration.ofSeconds(60))) {
			String root = "http://127.0.0.1:" + process.port();
			HttpClient client = HttpClient.newHttpClient();
			JsonNode models = get(client, root + "/v1/models");
			assertThat(models.at("/data/0/id").asText()).isEqualTo("tiny");
			assertThat(models.at("/data/0/meta/n_vocab").asInt()).isEqualTo(151936);
			assertThat(models.at("/data/0/meta/n_embd").asInt()).isEqualTo(64);
			assertThat(get(client, root + "/props").path("model_ftype").asText()).isEqualTo("F16");
			HttpResponse<String> chat = client.send(HttpRequest.newBuilder(URI.create(root + "/v1/chat/completions"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers
							.ofString("{\"model\":\"tiny\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(chat.statusCode()).isEqualTo(200);
			assertThat(Json.MAPPER.readTree(chat.body()).at("/usage/completion_tokens").asInt()).isEqualTo(8);
		}
	}

	private static JsonNode get(HttpClient client, String url) throws Exception {
		return Json.MAPPER
				.readTree(client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body());
	}

	/** {@code configured}, else {@code name} on PATH, else {@code fallback}; the test is skipped when none is executable. */
	private static Path find(String configured, String name, Path fallback) {
		List<Path> candidates = new ArrayList<>();
		if (configured != null) {
			candidates.add(Path.of(configured));
		}
		for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			if (!folder.isEmpty()) {
				candidates.add(Path.of(folder, name));
			}
		}
		candidates.add(fallback);
		Optional<Path> found = candidates.stream().filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
		Assumptions.assumeTrue(found.isPresent(), "no " + name + " (-Dllamacpp.server, PATH or " + fallback
				+ "): build one with tools/llamacpp/build-llama-server.sh");
		return found.get();
	}
}
