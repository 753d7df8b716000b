package dev.fakbattery.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.gateway.GatewayLauncher;

import org.apiguardian.api.API;

/**
 * One battery run: its id, when it started, the commit, the profile and the gateway under test as configured.
 * Every module of one Maven build gets the same run id ({@code harness.run.id}, set by the build from its start
 * time and a random part, {@link #newRunId}); a JVM started without one makes its own. Every artifact carries it, and the final gate counts only
 * artifacts of one run.
 *
 * @param runId the run id, for example {@code 20261130T201500Z-3fa9c2}
 * @param startedAt when the run started
 * @param gitCommit the commit of the checkout; null when not a git checkout
 * @param profile the running profile
 * @param gateway the gateway under test as configured: {@code gateway.url ...}, {@code gateway.cmd ...} or the
 *        embedded reference gateway
 * @since 0.2
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record RunContext(String runId, Instant startedAt, String gitCommit, Profile profile, String gateway) {

	/** The format of run ids the build writes: {@value}. */
	public static final String RUN_ID_FORMAT = "yyyyMMdd'T'HHmmss'Z'";

	private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern(RUN_ID_FORMAT).withZone(ZoneOffset.UTC);

	private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

	/** The start of a run started in this JVM without a build-given id. */
	private static final Instant JVM_START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

	/** The id of a run started in this JVM without a build-given id: its start, a random part, {@code -local}. */
	private static final String JVM_RUN_ID = newRunId(JVM_START) + "-local";

	public RunContext {
		Objects.requireNonNull(runId, "runId");
		Objects.requireNonNull(startedAt, "startedAt");
		Objects.requireNonNull(profile, "profile");
		Objects.requireNonNull(gateway, "gateway");
	}

	/** The run {@code config} belongs to. */
	public static RunContext of(HarnessConfig config) {
		String runId = config.string(HarnessConstants.RUN_ID).orElse(JVM_RUN_ID);
		return new RunContext(runId, startedAt(runId), Provenance.gitCommit(Provenance.rootDir(config)).orElse(null),
				config.profile(), GatewayLauncher.describe(config));
	}

	/**
	 * A new run id: {@code start} in {@link #RUN_ID_FORMAT}, then {@code -} and six random hex digits, so two runs
	 * started in the same second never share one ({@code 20261130T201500Z-3fa9c2}).
	 */
	public static String newRunId(Instant start) {
		return FORMAT.format(start) + "-" + String.format("%06x", RANDOM.nextInt(1 << 24));
	}

	/** The start time a run id of {@link #RUN_ID_FORMAT} (and any suffix) names; this JVM's start for any other id. */
	static Instant startedAt(String runId) {
		try {
			return Instant.from(FORMAT.parse(runId.length() >= 16 ? runId.substring(0, 16) : runId));
		}
		catch (DateTimeParseException e) {
			return JVM_START;
		}
	}

	/** The artifact's {@code run} block. */
	public void writeTo(ObjectNode node) {
		node.put("run_id", runId);
		node.put("started_at", startedAt.toString());
		node.put("git_commit", gitCommit);
		node.put("profile", profile.id());
	}
}
