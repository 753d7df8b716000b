package dev.fakbattery.bench.swebench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/** A copy of the GOOD fixture run folder in a temporary folder, mutated in place by a test. */
final class RunDirFixture {

	private final Path dir;

	private RunDirFixture(Path dir) {
		this.dir = dir;
	}

	/** Copies {@code src/test/resources/swebench/good} into {@code target}. */
	static RunDirFixture copyGood(Path target) {
		try {
			Path good = Path.of(RunDirFixture.class.getResource("/swebench/good").toURI());
			try (var files = Files.list(good)) {
				for (Path file : files.toList()) {
					Files.copy(file, target.resolve(file.getFileName()));
				}
			}
			return new RunDirFixture(target);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (URISyntaxException e) {
			throw new IllegalStateException(e);
		}
	}

	static Path good() {
		try {
			return Path.of(RunDirFixture.class.getResource("/swebench/good").toURI());
		}
		catch (URISyntaxException e) {
			throw new IllegalStateException(e);
		}
	}

	Path dir() {
		return dir;
	}

	RunDirFixture compare(Consumer<ObjectNode> mutation) {
		return json(RunDirFiles.COMPARE, mutation);
	}

	RunDirFixture preflight(Consumer<ObjectNode> mutation) {
		return json(RunDirFiles.COMPARE_PREFLIGHT, mutation);
	}

	RunDirFixture write(String file, String text) {
		try {
			Files.writeString(dir.resolve(file), text);
			return this;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	RunDirFixture delete(String file) {
		try {
			Files.delete(dir.resolve(file));
			return this;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	JsonNode compareJson() {
		try {
			return Json.MAPPER.readTree(dir.resolve(RunDirFiles.COMPARE).toFile());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private RunDirFixture json(String file, Consumer<ObjectNode> mutation) {
		try {
			ObjectNode doc = (ObjectNode) Json.MAPPER.readTree(dir.resolve(file).toFile());
			mutation.accept(doc);
			Json.MAPPER.writeValue(dir.resolve(file).toFile(), doc);
			return this;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	// ---- helpers for mutations

	static ObjectNode arm(ObjectNode compare, int i) {
		return (ObjectNode) compare.path("arms").get(i);
	}

	static ObjectNode agent(ObjectNode compare, int i) {
		return (ObjectNode) arm(compare, i).path("agent");
	}

	static ObjectNode grade(ObjectNode compare, int i) {
		return (ObjectNode) arm(compare, i).path("grade");
	}

	static ArrayNode array(ObjectNode node, String field) {
		return (ArrayNode) node.path(field);
	}
}
