package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import dev.fakbattery.wire.SseEvent;

/**
 * The wire fixtures under {@code fixtures/wire} of the repository, found by walking up from the working directory
 * (Maven runs tests in the module folder); the pattern of harness-api's own {@code WireFixtures}.
 */
final class WireFixtures {

	private static final Path ROOT = findRoot();

	private WireFixtures() {
	}

	/** A fixture by its path under {@code fixtures/wire}, for example {@code kit/vllm/tool-call-mixed.sse}. */
	static Path path(String relative) {
		Path path = ROOT.resolve(relative);
		if (!Files.isRegularFile(path)) {
			throw new IllegalArgumentException("no wire fixture " + relative + " under " + ROOT);
		}
		return path;
	}

	static byte[] bytes(String relative) {
		try {
			return Files.readAllBytes(path(relative));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	static String read(String relative) {
		return new String(bytes(relative), java.nio.charset.StandardCharsets.UTF_8);
	}

	/** Every event of an SSE fixture, {@code [DONE]} included. */
	static List<SseEvent> events(String relative) {
		return Sse.events(read(relative));
	}

	/** The {@code data:} payloads of an SSE fixture, {@code [DONE]} included, as sent. */
	static List<String> data(String relative) {
		return events(relative).stream().map(SseEvent::data).toList();
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
