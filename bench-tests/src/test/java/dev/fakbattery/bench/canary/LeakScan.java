package dev.fakbattery.bench.canary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Scans every file under a folder for secrets: as written, and inside every base64 run of the file (the single-file
 * Allure report embeds its data base64-encoded), decoded. A finding names the file, the secret's label and where.
 */
final class LeakScan {

	private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]{24,}={0,2}");

	private LeakScan() {
	}

	/** Every finding, as {@code LABEL in FILE (raw|base64 at OFFSET)}; empty when no file holds any secret. */
	static List<String> scan(Path root, Map<String, String> secrets) {
		List<String> findings = new ArrayList<>();
		try (Stream<Path> files = Files.walk(root)) {
			for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
				String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
				secrets.forEach((label, secret) -> {
					if (text.contains(secret)) {
						findings.add(label + " in " + root.relativize(file) + " (raw)");
					}
				});
				Matcher runs = BASE64.matcher(text);
				while (runs.find()) {
					String decoded = decoded(runs.group());
					int at = runs.start();
					secrets.forEach((label, secret) -> {
						if (decoded.contains(secret)) {
							findings.add(label + " in " + root.relativize(file) + " (base64 at " + at + ")");
						}
					});
				}
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

	/** The run decoded from each of its first four offsets (a run may begin before its base64 does), joined. */
	private static String decoded(String run) {
		StringBuilder all = new StringBuilder();
		for (int shift = 0; shift < 4 && shift < run.length(); shift++) {
			all.append(decode(run.substring(shift))).append('\n');
		}
		return all.toString();
	}

	private static String decode(String run) {
		String bare = run.replace("=", "");
		String padded = bare.substring(0, bare.length() - bare.length() % 4);
		try {
			return new String(Base64.getDecoder().decode(padded), StandardCharsets.ISO_8859_1);
		}
		catch (IllegalArgumentException notBase64) {
			return "";
		}
	}
}
