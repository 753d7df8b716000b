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

import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * One captured engine answer the kit replays ({@code wire.captures}): its stream ({@code NAME.sse}) and/or whole body
 * ({@code NAME.json}), the engine that sent it, and its provenance ({@code NAME.provenance.json}, or what the kit could
 * tell without one). {@link #variants()} derives the kit's scenarios: a capture with tool calls becomes an
 * {@code allow}, a {@code deny} and a {@code transform} variant, every tool renamed with that prefix of the kit's policy
 * convention; a capture without calls is replayed as sent.
 */
record Capture(String id, Dialect engine, Optional<String> sse, Optional<String> json, ObjectNode provenance) {

	static final String SIDECAR = ".provenance.json";

	private static final Pattern NAME = Pattern.compile("(\"name\"\\s*:\\s*\")([^\"\\\\]+)(\")");

	/** The variant names: the policy prefixes for a capture with calls, else the capture as sent. */
	List<String> variants() {
		return tools().isEmpty() ? List.of("as-sent") : List.of("allow", "deny", "transform");
	}

	/** The tool names its calls use, in either mode. */
	List<String> tools() {
		TreeSet<String> tools = new TreeSet<>();
		sse.ifPresent(text -> Exchange.of(text, true).toolCallDeltas().forEach(d -> d.name().ifPresent(tools::add)));
		json.ifPresent(text -> Exchange.of(text, false).calls().forEach(c -> Optional.ofNullable(c.name()).ifPresent(tools::add)));
		return List.copyOf(tools);
	}

	/** The captured text of a mode, its tools renamed for {@code variant} ({@code allow} makes {@code get_weather} {@code allow_get_weather}). */
	Optional<String> text(boolean stream, String variant) {
		Optional<String> text = stream ? sse : json;
		if (variant.equals("as-sent")) {
			return text;
		}
		List<String> tools = tools();
		return text.map(t -> NAME.matcher(t).replaceAll(m -> tools.contains(m.group(2))
				? Matcher.quoteReplacement(m.group(1) + variant + "_" + m.group(2) + m.group(3)) : Matcher.quoteReplacement(m.group())));
	}

	/** The tool names of a variant. */
	List<String> tools(String variant) {
		return variant.equals("as-sent") ? tools() : tools().stream().map(t -> variant + "_" + t).toList();
	}

	/** Whether the stream ends as a whole stream does, with {@code data: [DONE]}. */
	boolean completeStream() {
		return sse.map(text -> text.strip().endsWith("data: [DONE]")).orElse(false);
	}

	/** The upstream marker of a variant. */
	String marker(int number, String variant) {
		return "kit:capture:" + number + ":" + variant;
	}

	/**
	 * Every capture under {@code dir}: chat answers ({@code .json} bodies with {@code choices}, {@code .sse} streams with
	 * chunks), any depth; error bodies, model lists and anything else are left out.
	 */
	static List<Capture> load(Path dir) {
		if (!Files.isDirectory(dir)) {
			throw new ExtensionConfigurationException("Unable to read " + HarnessConstants.WIRE_CAPTURES + " value [" + dir
					+ "]: not a folder. Fix: pass -D" + HarnessConstants.WIRE_CAPTURES + "=DIR, a folder of NAME.sse / NAME.json captures.");
		}
		Map<String, Path[]> files = new LinkedHashMap<>();
		try (Stream<Path> walk = Files.walk(dir)) {
			walk.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).forEach(file -> {
				String name = file.getFileName().toString();
				boolean sse = name.endsWith(".sse");
				if ((sse || (name.endsWith(".json") && !name.endsWith(SIDECAR))) && isAnswer(read(file), sse)) {
					String id = dir.relativize(file).toString().replace('\\', '/').replaceAll("\\.(sse|json)$", "");
					files.computeIfAbsent(id, key -> new Path[2])[sse ? 0 : 1] = file;
				}
			});
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		List<Capture> captures = new ArrayList<>();
		files.forEach((id, pair) -> captures.add(of(dir, id, pair[0], pair[1])));
		return captures;
	}

	private static Capture of(Path dir, String id, Path sse, Path json) {
		Path sidecar = dir.resolve(id + SIDECAR);
		ObjectNode provenance = Files.isRegularFile(sidecar) ? WireJson.readObject(read(sidecar)) : Json.MAPPER.createObjectNode();
		Dialect engine = engine(id, provenance);
		if (!Files.isRegularFile(sidecar)) {
			provenance.put("engine", engine.id()).put("source", "no " + id + SIDECAR + "; engine from the folder name");
		}
		return new Capture(id, engine, Optional.ofNullable(sse).map(Capture::read), Optional.ofNullable(json).map(Capture::read), provenance);
	}

	private static Dialect engine(String id, ObjectNode provenance) {
		if (provenance.hasNonNull("engine")) {
			return Dialect.parse(provenance.get("engine").asText());
		}
		for (String folder : id.split("/")) {
			for (Dialect dialect : Dialect.values()) {
				if (folder.toLowerCase(Locale.ROOT).equals(dialect.id())) {
					return dialect;
				}
			}
		}
		throw new ExtensionConfigurationException("Unable to tell the engine of the capture [" + id + "] in " + HarnessConstants.WIRE_CAPTURES
				+ ". Fix: put " + id + SIDECAR + " with \"engine\": \"vllm\" or \"sglang\" beside it, or keep it under a vllm/ or sglang/ folder.");
	}

	private static boolean isAnswer(String text, boolean sse) {
		if (!sse) {
			return WireJson.read(text).map(j -> j.path("choices").isArray()).orElse(false);
		}
		return Exchange.of(text, true).events.stream().map(Exchange.Timed::event).anyMatch(e -> e.json()
			.map(j -> ((JsonNode) j).path("choices").isArray()).orElse(false));
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
