package dev.fakbattery.report;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.wire.Json;

/**
 * Allure's executor.json: who ran the battery, which run, with what command, and the CI build's URL when a CI
 * said (Jenkins {@code BUILD_URL}, GitHub Actions {@code GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID}).
 * {@code buildOrder} is the run's place in the run index, so Trend names its points; {@code reportName} is the title
 * Overview shows when the report is generated without {@code --name} (the battery report: its verdict first).
 *
 * @since 0.3
 */
public final class Executor {

	private Executor() {
	}

	/**
	 * Writes executor.json into {@code resultsDir}.
	 *
	 * @param reportName the report's title (Overview shows it; the battery report's carries the battery verdict)
	 */
	public static Path write(Path resultsDir, String runId, int buildOrder, String buildCommand, String reportName,
			Function<String, String> env) {
		ObjectNode executor = Json.MAPPER.createObjectNode();
		executor.put("name", "fak-battery on " + host());
		executor.put("type", "maven");
		executor.put("buildName", "run " + runId + ": " + buildCommand);
		executor.put("buildOrder", buildOrder);
		executor.put("reportName", reportName);
		buildUrl(env).ifPresent(url -> executor.put("buildUrl", url));
		return ArtifactFiles.writeJson(resultsDir.resolve("executor.json"), executor);
	}

	static Optional<String> buildUrl(Function<String, String> env) {
		String jenkins = env.apply("BUILD_URL");
		if (jenkins != null && !jenkins.isBlank()) {
			return Optional.of(jenkins);
		}
		Map<String, String> github = new java.util.LinkedHashMap<>();
		for (String name : new String[]{ "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID" }) {
			String value = env.apply(name);
			if (value == null || value.isBlank()) {
				return Optional.empty();
			}
			github.put(name, value);
		}
		return Optional.of(github.get("GITHUB_SERVER_URL") + "/" + github.get("GITHUB_REPOSITORY") + "/actions/runs/"
				+ github.get("GITHUB_RUN_ID"));
	}

	private static String host() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException e) {
			return "an unknown host";
		}
	}
}
