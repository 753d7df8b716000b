package dev.fakbattery.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The wire fixtures under {@code fixtures/wire} of the repository, found by walking up from the working directory
 * (Maven runs tests in the module folder). Shared through this module's test-jar with the engine double's and the
 * reference gateway's tests.
 */
public final class WireFixtures {

	private static final Path ROOT = findRoot();

	private WireFixtures() {
	}

	/** {@code fixtures/wire} itself. */
	public static Path root() {
		return ROOT;
	}

	/** A fixture by its path under {@code fixtures/wire}, for example {@code vllm/chat-tool-call.sse}. */
	public static Path path(String relative) {
		Path path = ROOT.resolve(relative);
		if (!Files.isRegularFile(path)) {
			throw new IllegalArgumentException("no wire fixture " + relative + " under " + ROOT);
		}
		return path;
	}

	/** A fixture's bytes as captured. */
	public static byte[] bytes(String relative) {
		try {
			return Files.readAllBytes(path(relative));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** A fixture's text, UTF-8. */
	public static String read(String relative) {
		return new String(bytes(relative), StandardCharsets.UTF_8);
	}

	public static InputStream open(String relative) {
		try {
			return Files.newInputStream(path(relative));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/**
	 * Every fixture with the extension ({@code sse}, {@code json}), relative to {@code fixtures/wire}, sorted; the capture
	 * command's {@code NAME.provenance.json} sidecars are not wire and are left out.
	 */
	public static List<String> all(String extension) {
		try (Stream<Path> files = Files.walk(ROOT)) {
			return files.filter(Files::isRegularFile)
					.map(file -> ROOT.relativize(file).toString().replace('\\', '/'))
					.filter(name -> name.endsWith("." + extension) && !name.endsWith(".provenance.json"))
					.sorted()
					.toList();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/**
	 * The HTTP status the engine answered a captured fixture with: its {@code NAME.provenance.json} sidecar's (the capture
	 * command's), else 200.
	 */
	public static int status(String relative) {
		String base = relative.replaceAll("\\.(sse|json)$", "");
		Path sidecar = ROOT.resolve(base + ".provenance.json");
		if (!Files.isRegularFile(sidecar)) {
			return 200;
		}
		String mode = relative.endsWith(".sse") ? "stream" : "non-stream";
		return WireJson.readObject(read(base + ".provenance.json")).path("answers").path(mode).path("http_status").asInt(200);
	}

	/** The {@code data:} payloads of every event in an SSE fixture, {@code [DONE]} included. */
	public static List<SseEvent> events(String relative) {
		List<SseEvent> events = new ArrayList<>();
		try (SseReader reader = new SseReader(open(relative))) {
			for (var event = reader.next(); event.isPresent(); event = reader.next()) {
				events.add(event.get());
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return events;
	}

	/** The {@code data:} payloads of an SSE fixture, {@code [DONE]} included, as sent. */
	public static List<String> data(String relative) {
		return events(relative).stream().map(SseEvent::data).toList();
	}

	/** The chunks of an SSE fixture, without {@code [DONE]} and error frames. */
	public static List<ChatChunk> chunks(String relative) {
		return events(relative).stream().filter(event -> event.kind() == SseEvent.Kind.DATA).map(SseEvent::chunk).toList();
	}

	private static Path findRoot() {
		Path start = Paths.get("").toAbsolutePath();
		for (Path dir = start; dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve("fixtures").resolve("wire");
			if (Files.isDirectory(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("no fixtures/wire in " + start + " or any folder above it");
	}
}
