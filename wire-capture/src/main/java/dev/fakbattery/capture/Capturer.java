package dev.fakbattery.capture;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.HttpClients;
import dev.fakbattery.wire.SecretGuard;
import dev.fakbattery.wire.WireJson;

/**
 * Asks the engine each prompt whole and streamed and writes what came back, byte for byte, as
 * {@code OUT/ENGINE/PROMPT.json} (the whole answer) and {@code .sse} (the answer to the streamed request; an error body
 * when the engine refused it), with {@code PROMPT.provenance.json}: engine and engine version, model, tool parser, when,
 * the command, the request and each answer's HTTP status. A file that would hold the API key ({@code --api-key-env}) in any
 * form is not written: the capture fails naming it ({@link SecretGuard}).
 */
final class Capturer {

	private final CaptureArguments arguments;

	private final String command;

	private final Clock clock;

	private final HttpClient http = HttpClients.http11(Duration.ofSeconds(10));

	private final Function<String, String> env;

	private final SecretGuard guard;

	Capturer(CaptureArguments arguments, String command, Clock clock) {
		this(arguments, command, clock, System::getenv);
	}

	/** A capturer that reads the variable {@code --api-key-env} names from {@code env}: a self-test plants a canary key. */
	Capturer(CaptureArguments arguments, String command, Clock clock, Function<String, String> env) {
		this.arguments = arguments;
		this.command = command;
		this.clock = clock;
		this.env = env;
		this.guard = arguments.apiKeyEnv() == null
				? SecretGuard.none()
				: SecretGuard.of("--api-key-env", "the value of the environment variable " + arguments.apiKeyEnv() + " (--api-key-env)",
						env.apply(arguments.apiKeyEnv()));
	}

	/** Captures every selected prompt; the number of answers that were not what the prompt expects (HTTP 200, or a 4xx for a refused one). */
	int captureAll(PrintStream out) throws IOException, InterruptedException {
		Path folder = Files.createDirectories(arguments.out().resolve(arguments.engine().id()));
		String version = engineVersion();
		int failed = 0;
		for (CapturePrompts.Prompt prompt : CapturePrompts.all()) {
			if (!arguments.prompts().isEmpty() && !arguments.prompts().contains(prompt.name())) {
				continue;
			}
			ObjectNode provenance = provenance(prompt, version);
			StringBuilder line = new StringBuilder("captured " + arguments.engine().id() + "/" + prompt.name() + ":");
			if (prompt.wholeToo()) {
				failed += capture(prompt, false, folder, provenance, line);
			}
			failed += capture(prompt, true, folder, provenance, line);
			write(folder.resolve(prompt.name() + ".provenance.json"),
					(provenance.toPrettyString() + "\n").getBytes(StandardCharsets.UTF_8));
			out.println(line);
		}
		return failed;
	}

	private int capture(CapturePrompts.Prompt prompt, boolean stream, Path folder, ObjectNode provenance, StringBuilder line)
			throws IOException, InterruptedException {
		ObjectNode body = prompt.request().deepCopy();
		body.put("model", arguments.model());
		if (stream) {
			body.put("stream", true);
			if (!body.has("stream_options")) {
				body.putObject("stream_options").put("include_usage", true);
			}
		}
		HttpResponse<byte[]> response = http.send(post(arguments.baseUrl() + "/chat/completions", WireJson.write(body)),
				HttpResponse.BodyHandlers.ofByteArray());
		String file = prompt.name() + (stream ? ".sse" : ".json");
		write(folder.resolve(file), response.body());
		provenance.with("answers")
				.putObject(stream ? "stream" : "non-stream")
				.put("file", file)
				.put("http_status", response.statusCode())
				.put("bytes", response.body().length);
		line.append(stream ? " stream " : " non-stream ")
				.append(response.statusCode())
				.append(" (")
				.append(response.body().length)
				.append(" bytes)");
		return prompt.expects(response.statusCode()) ? 0 : 1;
	}

	private ObjectNode provenance(CapturePrompts.Prompt prompt, String version) {
		ObjectNode provenance = dev.fakbattery.wire.Json.MAPPER.createObjectNode();
		provenance.put("engine", arguments.engine().id());
		provenance.put("engine_version", version);
		provenance.put("model", arguments.model());
		provenance.put("tool_parser", Optional.ofNullable(arguments.parser()).orElse("unknown (not given: pass --parser)"));
		provenance.put("captured_at", Instant.now(clock).toString());
		provenance.put("base_url", arguments.baseUrl().toString());
		provenance.put("command", command);
		provenance.put("prompt", prompt.name());
		provenance.set("request", prompt.request().deepCopy().put("model", arguments.model()));
		return provenance;
	}

	/**
	 * The engine's version: vLLM's {@code GET /version}, else SGLang's {@code GET /get_server_info}, else llama.cpp's
	 * {@code GET /props} ({@code build_info}, {@code b<build>-<commit>}); what was seen otherwise.
	 */
	private String engineVersion() throws InterruptedException {
		String root = arguments.baseUrl().toString().replaceAll("/v1$", "");
		StringBuilder seen = new StringBuilder();
		for (Map.Entry<String, String> probe : List.of(Map.entry("/version", "version"), Map.entry("/get_server_info", "version"),
				Map.entry("/props", "build_info"))) {
			String path = probe.getKey();
			try {
				HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(root + path))
						.timeout(Duration.ofSeconds(30))
						.headers(authorization())
						.GET()
						.build(), HttpResponse.BodyHandlers.ofString());
				Optional<String> version = WireJson.read(response.body())
						.map(j -> j.path(probe.getValue()).asText(""))
						.filter(v -> !v.isEmpty());
				if (response.statusCode() == 200 && version.isPresent()) {
					return version.get();
				}
				seen.append(seen.isEmpty() ? "" : ", ").append("GET ").append(path).append(" answered ").append(response.statusCode());
			}
			catch (IOException e) {
				seen.append(seen.isEmpty() ? "" : ", ").append("GET ").append(path).append(" failed: ").append(e.getMessage());
			}
		}
		return "unknown (" + seen + ")";
	}

	private HttpRequest post(String url, String body) {
		return HttpRequest.newBuilder(URI.create(url))
				.timeout(Duration.ofMinutes(5))
				.headers(authorization())
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build();
	}

	/** {@code Authorization: Bearer <key>} when --api-key-env names a set variable; the key is never written anywhere. */
	private String[] authorization() {
		String key = arguments.apiKeyEnv() == null ? null : env.apply(arguments.apiKeyEnv());
		return key == null || key.isBlank() ? new String[]{ "Accept", "*/*" } : new String[]{ "Authorization", "Bearer " + key };
	}

	/**
	 * Writes a capture once the {@link SecretGuard} finds no API key in it, in any form (an engine that echoes its
	 * request's headers, say).
	 *
	 * @throws IllegalStateException {@code capture FILE would contain ...; refused to write it}, the file not written
	 */
	private void write(Path file, byte[] bytes) throws IOException {
		guard.requireAbsent(bytes, "capture " + file);
		Files.write(file, bytes);
	}

	static void requireWritable(Path out) {
		try {
			Files.createDirectories(out);
		}
		catch (IOException e) {
			throw new UncheckedIOException("--out [" + out + "] cannot be created: " + e.getMessage(), e);
		}
	}
}
