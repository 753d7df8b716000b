package dev.fakbattery.bench.swebench;

import java.util.List;

import dev.fakbattery.core.Check;
import dev.fakbattery.wire.JsonDocument;

/** Fails every check of a file that is missing or unreadable, saying which. */
final class Unavailable {

	private Unavailable() {
	}

	static List<Check> checks(List<String> names, JsonDocument file) {
		String observed = file.path().getFileName() + " " + file.detail();
		return names.stream()
				.map(name -> new Check(name, false, "a readable " + file.path().getFileName(), observed))
				.toList();
	}
}
