package dev.fakbattery.capture;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.wire.Dialect;

/**
 * The command line of {@link CaptureMain}: {@code --base-url URL --model NAME --engine vllm|sglang|llamacpp --out DIR
 * [--parser NAME] [--api-key-env NAME] [--prompts a,b]}, each flag also as {@code --flag=value}. A bad line is an
 * {@link IllegalArgumentException} whose message names the flag.
 *
 * @param baseUrl the engine's OpenAI base URL, ending in {@code /v1}
 * @param model the served model name to ask for
 * @param engine the engine's dialect (where the captures go, and what the kit replays them as)
 * @param out the folder to write to ({@code OUT/ENGINE/PROMPT.{json,sse,provenance.json}})
 * @param parser the engine's tool-call parser, for the provenance (the engine does not report it); null if not given
 * @param apiKeyEnv the NAME of the environment variable holding the API key, or null
 * @param prompts the prompts to capture, by name; all when empty
 * @since 0.2
 */
record CaptureArguments(URI baseUrl, String model, Dialect engine, Path out, String parser, String apiKeyEnv, List<String> prompts) {

	static final String USAGE = """
			usage: java -jar wire-capture.jar --base-url URL --model NAME --engine vllm|sglang|llamacpp --out DIR
			                                  [--parser NAME] [--api-key-env NAME] [--prompts NAME,NAME]
			  --base-url URL      the engine's OpenAI base URL, e.g. http://127.0.0.1:8000/v1
			  --model NAME        the served model name
			  --engine NAME       vllm, sglang or llamacpp
			  --out DIR           where to write DIR/ENGINE/PROMPT.json, .sse and .provenance.json
			  --parser NAME       the engine's --tool-call-parser, recorded in the provenance
			  --api-key-env NAME  NAME of the environment variable holding the API key (never the key)
			  --prompts A,B       capture only these prompts (default all: %s)
			Replay the folder with the wire kit: ./mvnw verify -pl conformance-tests -am -Dwire.captures=DIR
			""".formatted(String.join(", ", CapturePrompts.names()));

	static CaptureArguments parse(String... args) {
		String baseUrl = null;
		String model = null;
		String engine = null;
		String out = null;
		String parser = null;
		String apiKeyEnv = null;
		String prompts = null;
		for (int i = 0; i < args.length; i++) {
			String flag = args[i];
			String value;
			int equals = flag.indexOf('=');
			if (flag.startsWith("--") && equals > 0) {
				value = flag.substring(equals + 1);
				flag = flag.substring(0, equals);
			}
			else {
				value = i + 1 < args.length ? args[++i] : null;
			}
			switch (flag) {
				case "--base-url" -> baseUrl = value;
				case "--model" -> model = value;
				case "--engine" -> engine = value;
				case "--out" -> out = value;
				case "--parser" -> parser = value;
				case "--api-key-env" -> apiKeyEnv = value;
				case "--prompts" -> prompts = value;
				default -> throw new IllegalArgumentException("unknown flag [" + flag + "]");
			}
		}
		return new CaptureArguments(baseUrl(required("--base-url", baseUrl)), required("--model", model),
				engine(required("--engine", engine)),
				Path.of(required("--out", out)), blankToNull(parser), blankToNull(apiKeyEnv), prompts(prompts));
	}

	private static String required(String flag, String value) {
		if (value == null || value.isBlank() || value.startsWith("--")) {
			throw new IllegalArgumentException(flag + " is required");
		}
		return value.trim();
	}

	private static URI baseUrl(String value) {
		URI uri;
		try {
			uri = URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--base-url [" + value + "] is not a URL", e);
		}
		if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
				|| !uri.getPath().endsWith("/v1")) {
			throw new IllegalArgumentException("--base-url [" + value + "] must be an http(s) URL ending in /v1");
		}
		return uri;
	}

	private static Dialect engine(String value) {
		try {
			return Dialect.parse(value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--engine [" + value + "] must be one of " + Dialect.ids(), e);
		}
	}

	private static List<String> prompts(String value) {
		if (value == null || value.isBlank()) {
			return List.of();
		}
		List<String> names = List.of(value.split(",")).stream().map(String::trim).toList();
		for (String name : names) {
			if (!CapturePrompts.names().contains(name)) {
				throw new IllegalArgumentException("--prompts [" + name + "] is not one of " + CapturePrompts.names());
			}
		}
		return names;
	}

	private static String blankToNull(String value) {
		return value == null || value.isBlank() ? null : value.trim();
	}
}
