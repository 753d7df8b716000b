package dev.fakbattery.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.qameta.allure.Allure;

/**
 * Puts a rung's verdict and its files on the Allure result of the running test.
 */
final class ReportAttachments {

	private ReportAttachments() {
	}

	static void attach(Verdict verdict, Path artifact, List<Path> extra) {
		Allure.label("verdict", verdict.name());
		Allure.parameter("verdict", verdict.name());
		attachFile(artifact);
		extra.forEach(ReportAttachments::attachFile);
	}

	private static void attachFile(Path file) {
		String name = file.getFileName().toString();
		String extension = name.contains(".") ? name.substring(name.lastIndexOf('.')) : "";
		try (InputStream in = Files.newInputStream(file)) {
			Allure.addAttachment(name, contentType(extension), in, extension);
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not attach " + file + " to the report", e);
		}
	}

	private static String contentType(String extension) {
		return switch (extension) {
			case ".json" -> "application/json";
			case ".png" -> "image/png";
			case ".svg" -> "image/svg+xml";
			case ".md" -> "text/markdown";
			default -> "text/plain";
		};
	}
}
