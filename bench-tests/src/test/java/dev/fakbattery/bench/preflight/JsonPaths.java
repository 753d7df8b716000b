package dev.fakbattery.bench.preflight;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/** Every field path of a JSON tree, in document order: {@code nvidia_smi.gpus[].name}. */
final class JsonPaths {

	private JsonPaths() {
	}

	static List<String> of(JsonNode node) {
		List<String> paths = new ArrayList<>();
		collect(node, "", paths);
		return paths;
	}

	private static void collect(JsonNode node, String prefix, List<String> paths) {
		if (node.isObject()) {
			node.properties().forEach(e -> {
				String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
				paths.add(path);
				collect(e.getValue(), path, paths);
			});
		}
		else if (node.isArray() && !node.isEmpty()) {
			collect(node.get(0), prefix + "[]", paths);
		}
	}
}
