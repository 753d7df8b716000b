package dev.fakbattery.bench.canary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.fakbattery.wire.SecretGuard;

/**
 * Scans every file under a folder for secrets with the harness's own {@link SecretGuard}: raw, JSON-escaped,
 * URL-encoded and base64 (the single-file Allure report embeds its data base64-encoded), alone or inside a blob. A
 * finding names the file, the secret's label and the form.
 */
final class LeakScan {

	private LeakScan() {
	}

	/** Every finding, as {@code LABEL in FILE (FORM)}; empty when no file holds any secret. */
	static List<String> scan(Path root, Map<String, String> secrets) {
		List<String> findings = new ArrayList<>();
		try (Stream<Path> files = Files.walk(root)) {
			for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
				secrets.forEach((label, secret) -> SecretGuard.of(label, label, secret)
						.find(file)
						.ifPresent(found -> findings.add(label + " in " + root.relativize(file) + " ("
								+ found.substring(label.length() + 2) + ")")));
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot scan " + root + ": " + e.getMessage(), e);
		}
		return findings;
	}

	/** Files scanned, for the report. */
	static long files(Path root) {
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter(Files::isRegularFile).count();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
