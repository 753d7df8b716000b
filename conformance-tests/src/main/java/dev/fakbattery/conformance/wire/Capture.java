package dev.fakbattery.conformance.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

/**
 * One captured engine answer the kit replays ({@code wire.captures}): its stream ({@code NAME.sse}) and/or whole body
 * ({@code NAME.json}), or one verbatim HTTP answer as {@code curl -si} prints it ({@code NAME.http}: status line,
 * headers, blank line, body; the mode from its {@code Content-Type}), the engine that sent it, and its provenance
 * ({@code NAME.provenance.json}, or what the kit could tell without one). An answer is a chat answer (a body with
 * {@code choices}, a stream of chunks) or, when its sidecar says the engine answered that mode with another status than
 * 200, the engine's error answer, replayed with that status. {@link #variants()} derives the kit's scenarios: a capture
 * with tool calls becomes an {@code allow}, a {@code deny} and a {@code transform} variant, every tool renamed with that
 * prefix of the kit's policy convention; a capture without calls is replayed as sent.
 */
record Capture(String id, Dialect engine, Optional<String> sse, Optional<String> json, ObjectNode provenance) {

	static final String SIDECAR = ".provenance.json";

	private static final Pattern NAME = Pattern.compile("(\"name\"\\s*:\\s*\")([^\"\\\\]+)(\")");

	/** {@code curl -si} output: the status line, headers (the content type among them), a blank line, the body. */
	private static final Pattern HTTP = Pattern.compile("HTTP/[\\d.]+ (\\d{3})[^\r\n]*\r?\n((?:[^\r\n]+\r?\n)*)\r?\n(.*)", Pattern.DOTALL);

	/** The variant names: the policy prefixes for a capture with calls, else the capture as sent. */
	List<String> variants() {
		return tools().isEmpty() ? List.of("as-sent") : List.of("allow", "deny", "transform");
	}

	/** The tool names its calls use, in either mode. */
	List<String> tools() {
		TreeSet<String> tools = new TreeSet<>();
		sse.ifPresent(text -> Exchange.of(text, true).toolCallDeltas().forEach(d -> d.name().ifPresent(tools::add)));
		json.ifPresent(text -> Exchange.of(text, false).calls().forEach(c -> Optional.ofNullable(c.name()).ifPresent(tools::add)));
		tools.remove(""); // an empty name on a continuation delta names no tool
		return List.copyOf(tools);
	}

	/** The captured text of a mode, its tools renamed for {@code variant} ({@code allow} makes {@code get_weather} {@code allow_get_weather}). */
	Optional<String> text(boolean stream, String variant) {
		Optional<String> text = stream ? sse : json;
		if (variant.equals("as-sent")) {
			return text;
		}
		List<String> tools = tools();
		return text.map(t -> NAME.matcher(t)
				.replaceAll(m -> tools.contains(m.group(2))
						? Matcher.quoteReplacement(m.group(1) + variant + "_" + m.group(2) + m.group(3))
						: Matcher.quoteReplacement(m.group())));
	}

	/** The tool names of a variant. */
	List<String> tools(String variant) {
		return variant.equals("as-sent") ? tools() : tools().stream().map(t -> variant + "_" + t).toList();
	}

	/** Whether the stream ends as a whole stream does, with {@code data: [DONE]} (an error answer is whole as it is). */
	boolean completeStream() {
		return isError(true) || sse.map(text -> text.strip().endsWith("data: [DONE]")).orElse(false);
	}

	/** The HTTP status the engine answered the request of a mode with: what the provenance says, else 200. */
	int status(boolean stream) {
		return provenance.path("answers").path(stream ? "stream" : "non-stream").path("http_status").asInt(200);
	}

	/** Whether the engine refused the request of a mode: an error body with a status other than 200. */
	boolean isError(boolean stream) {
		return (stream ? sse : json).isPresent() && status(stream) != 200;
	}

	/** The capture of a mode as the client read it from the engine: a chat answer, or the error with its status. */
	Exchange truth(boolean stream, String variant) {
		String text = text(stream, variant).orElseThrow();
		return isError(stream) ? new Exchange(status(stream), null, text, false, List.of(), false, 0, 0) : Exchange.of(text, stream);
	}

	/** The upstream marker of a variant. */
	String marker(int number, String variant) {
		return "kit:capture:" + number + ":" + variant;
	}

	/**
	 * Every capture under {@code dir}: chat answers ({@code .json} bodies with {@code choices}, {@code .sse} streams with
	 * chunks, {@code .http} answers with either) and the error answers a sidecar gives a status other than 200, any depth;
	 * other error bodies, model lists and anything else are left out.
	 */
	static List<Capture> load(Path dir) {
		if (!Files.isDirectory(dir)) {
			throw new ConfigurationException("Unable to read " + HarnessConstants.WIRE_CAPTURES + " value [" + dir
					+ "]: not a folder. Fix: pass -D" + HarnessConstants.WIRE_CAPTURES
					+ "=DIR, a folder of NAME.sse / NAME.json captures.");
		}
		Map<String, Answer[]> answers = new LinkedHashMap<>();
		try (Stream<Path> walk = Files.walk(dir)) {
			walk.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).forEach(file -> {
				String id = dir.relativize(file).toString().replace('\\', '/').replaceAll("\\.(sse|json|http)$", "");
				answer(file, sidecar(dir, id)).ifPresent(a -> answers.computeIfAbsent(id, key -> new Answer[2])[a.stream() ? 0 : 1] = a);
			});
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		List<Capture> captures = new ArrayList<>();
		answers.forEach((id, pair) -> captures.add(of(dir, id, pair[0], pair[1])));
		return captures;
	}

	/** One file's answer: its mode, body and status. */
	private record Answer(Path file, boolean stream, String body, int status) {
	}

	/** The answer {@code file} holds, if it is one the kit replays. */
	private static Optional<Answer> answer(Path file, Optional<ObjectNode> sidecar) {
		String name = file.getFileName().toString();
		if (name.endsWith(".http")) {
			Matcher http = HTTP.matcher(read(file));
			return http.matches()
					? Optional.of(new Answer(file, http.group(2).contains("text/event-stream"), http.group(3),
							Integer.parseInt(http.group(1)))).filter(a -> a.status() == 200 && isAnswer(a.body(), a.stream()))
					: Optional.empty();
		}
		if (!name.endsWith(".sse") && !(name.endsWith(".json") && !name.endsWith(SIDECAR))) {
			return Optional.empty();
		}
		boolean stream = name.endsWith(".sse");
		int status = sidecar.map(p -> p.path("answers").path(stream ? "stream" : "non-stream"))
				.filter(a -> a.path("file").asText().equals(name))
				.map(a -> a.path("http_status").asInt(200))
				.orElse(200);
		String body = read(file);
		return status != 200 || isAnswer(body, stream) ? Optional.of(new Answer(file, stream, body, status)) : Optional.empty();
	}

	private static Optional<ObjectNode> sidecar(Path dir, String id) {
		Path sidecar = dir.resolve(id + SIDECAR);
		return Files.isRegularFile(sidecar) ? Optional.of(WireJson.readObject(read(sidecar))) : Optional.empty();
	}

	private static Capture of(Path dir, String id, Answer sse, Answer json) {
		ObjectNode provenance = sidecar(dir, id).orElseGet(Json.MAPPER::createObjectNode);
		Dialect engine = engine(dir, id, provenance);
		if (!provenance.has("engine")) {
			provenance.put("engine", engine.id()).put("source", "no " + id + SIDECAR + "; engine from the folder name");
		}
		for (Answer answer : new Answer[]{ sse, json }) {
			String file = answer == null ? "" : answer.file().getFileName().toString();
			if (file.endsWith(".http")) {
				provenance.with("answers")
						.putObject(answer.stream() ? "stream" : "non-stream")
						.put("file", file)
						.put("http_status", answer.status())
						.put("format", "verbatim HTTP answer (curl -si): status line and headers left out of the replay");
			}
		}
		return new Capture(id, engine, Optional.ofNullable(sse).map(Answer::body), Optional.ofNullable(json).map(Answer::body), provenance);
	}

	/** The sidecar's {@code engine}, else the nearest folder named after a dialect, from the capture up (the captures folder's own and its parents' too). */
	private static Dialect engine(Path dir, String id, ObjectNode provenance) {
		if (provenance.hasNonNull("engine")) {
			return Dialect.parse(provenance.get("engine").asText());
		}
		for (Path folder = dir.resolve(id).toAbsolutePath().normalize().getParent(); folder != null
				&& folder.getFileName() != null; folder = folder.getParent()) {
			for (Dialect dialect : Dialect.values()) {
				if (folder.getFileName().toString().toLowerCase(Locale.ROOT).equals(dialect.id())) {
					return dialect;
				}
			}
		}
		throw new ConfigurationException("Unable to tell the engine of the capture [" + id + "] in " + HarnessConstants.WIRE_CAPTURES
				+ ". Fix: put " + id + SIDECAR + " with \"engine\": one of " + Dialect.ids()
				+ " beside it, or keep it under a folder of that name.");
	}

	private static boolean isAnswer(String text, boolean sse) {
		if (!sse) {
			return WireJson.read(text).map(j -> j.path("choices").isArray()).orElse(false);
		}
		return Exchange.of(text, true).events.stream()
				.map(Exchange.Timed::event)
				.anyMatch(e -> e.json()
						.map(j -> ((JsonNode) j).path("choices").isArray())
						.orElse(false));
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException("capture " + file + " unreadable", e);
		}
	}
}
