package dev.fakbattery.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.apiguardian.api.API;

/**
 * What a rung's verdict follows from: its acceptance checks, its pending and invalidated measurements, whether it was
 * a dry run or measured the engine double, and what it threw. Taken from the {@link RungRecorder} when the rung ends,
 * or read back from the artifact it wrote ({@link #of(JsonNode)}), so that the final gate recomputes an artifact's
 * verdict from what it lists instead of trusting the string.
 *
 * @param thrown what the rung threw, as far as the verdict cares
 * @param error the throwable in one line ({@code SimpleName: message}); null when none
 * @param checks every acceptance check; a check left unjudged on an invalid measurement ({@code NOT_JUDGED}) is a
 *        failed measurement check
 * @param pending the names of the pending measurements, the invalidated ones included
 * @param invalidated the names of the measurements their own instrument invalidated ({@link RungRecorder#invalid})
 * @param planned why the rung was a dry run; null when it was not
 * @param simulated why the rung measured the engine double; null when it did not
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public record RungEvidence(Thrown thrown, String error, List<Check> checks, List<String> pending, List<String> invalidated,
		String planned, String simulated) {

	/** What a rung threw, as far as its verdict cares. */
	public enum Thrown {
		/** Nothing. */
		NONE,
		/** A {@link ConfigurationException}: the rung was pointed at the wrong server; PENDING_MEASUREMENT. */
		MISCONFIGURATION,
		/** An {@code org.opentest4j.TestAbortedException} (an assumption): PENDING_MEASUREMENT unless a check failed. */
		ABORTED,
		/** Anything else: FAIL. */
		ERROR;

		static Thrown of(Optional<Throwable> thrown) {
			if (thrown.isEmpty()) {
				return NONE;
			}
			if (thrown.get() instanceof ConfigurationException) {
				return MISCONFIGURATION;
			}
			return RungOutcome.aborted(thrown.get()) ? ABORTED : ERROR;
		}

		/**
		 * The kind an artifact's {@code error} line ({@code SimpleName: message}) names; the line keeps only the simple
		 * name, so a subclass of either exception reads as an ERROR.
		 */
		static Thrown of(String error) {
			if (error == null) {
				return NONE;
			}
			String name = error.contains(":") ? error.substring(0, error.indexOf(':')) : error;
			if (name.equals(ConfigurationException.class.getSimpleName())) {
				return MISCONFIGURATION;
			}
			return name.equals(ABORTED_NAME) ? ABORTED : ERROR;
		}
	}

	/** The simple name of the exception JUnit's assumptions throw: {@value}. */
	static final String ABORTED_NAME = "TestAbortedException";

	public RungEvidence {
		Objects.requireNonNull(thrown, "thrown");
		checks = List.copyOf(checks);
		pending = List.copyOf(pending);
		invalidated = List.copyOf(invalidated);
	}

	/** What {@code run} recorded, and what it threw. */
	static RungEvidence of(RungRecorder run, Optional<Throwable> thrown) {
		return new RungEvidence(Thrown.of(thrown),
				thrown.map(t -> t.getClass().getSimpleName() + ": " + t.getMessage()).orElse(null), run.checks(),
				run.pendings().stream().map(Measurement.Pending::name).toList(),
				run.invalidations().stream().map(Measurement.Pending::name).toList(), run.plannedBecause().orElse(null),
				run.simulatedBecause().orElse(null));
	}

	/**
	 * What an artifact written by {@link ArtifactDocument#build} lists: {@code acceptance} (a check passed only when its
	 * status is PASS; a check not judged for want of evidence, {@code "pending": true}, counts among the pending
	 * measurements, where the rung recorded it too), {@code pending} (with {@code invalidated}), {@code planned}, {@code simulated} and {@code error}.
	 */
	public static RungEvidence of(JsonNode artifact) {
		List<Check> checks = new ArrayList<>();
		artifact.path("acceptance")
				.properties()
				.stream()
				.filter(entry -> !entry.getValue().path("pending").asBoolean(false))
				.forEach(entry -> checks.add(new Check(entry.getKey(), "PASS".equals(entry.getValue().path("status").asText()),
						entry.getValue().path("expected").asText(""), entry.getValue().path("observed").asText(""),
						entry.getValue().path("product").asBoolean(false))));
		List<String> pending = new ArrayList<>();
		List<String> invalidated = new ArrayList<>();
		for (JsonNode entry : artifact.path("pending")) {
			pending.add(entry.path("name").asText("?"));
			if (entry.path("invalidated").asBoolean(false)) {
				invalidated.add(entry.path("name").asText("?"));
			}
		}
		String error = text(artifact, "error");
		return new RungEvidence(Thrown.of(error), error, checks, pending, invalidated, text(artifact, "planned"),
				text(artifact, "simulated"));
	}

	private static String text(JsonNode artifact, String field) {
		return artifact.path(field).isTextual() ? artifact.path(field).asText() : null;
	}

	/** The verdict this evidence gives; the order is {@link RungOutcome#verdict}'s. */
	public Verdict verdict() {
		return judge().verdict();
	}

	/**
	 * Why {@link #verdict()} is what it is, in one line: the first failed check ({@code check X failed: expected E,
	 * observed O}), the pending or invalidated measurements, the error, the dry run, the engine double, or that every
	 * check passed.
	 */
	public String because() {
		return judge().because();
	}

	private Judged judge() {
		if (thrown == Thrown.MISCONFIGURATION) {
			return new Judged(Verdict.PENDING_MEASUREMENT, "misconfiguration: " + error);
		}
		if (thrown == Thrown.ERROR) {
			return new Judged(Verdict.FAIL, "the rung threw " + error);
		}
		Optional<Check> productFailure = checks.stream().filter(Check::productFailure).findFirst();
		if (productFailure.isPresent()) {
			return new Judged(Verdict.FAIL, failed(productFailure.get()));
		}
		if (!invalidated.isEmpty()) {
			return new Judged(Verdict.PENDING_MEASUREMENT, "invalidated by its own instrument: " + String.join(", ", invalidated));
		}
		Optional<Check> failed = checks.stream().filter(c -> !c.passed()).findFirst();
		if (failed.isPresent()) {
			return new Judged(Verdict.FAIL, failed(failed.get()));
		}
		if (!pending.isEmpty()) {
			return new Judged(Verdict.PENDING_MEASUREMENT, "pending: " + String.join(", ", pending));
		}
		if (thrown == Thrown.ABORTED) {
			return new Judged(Verdict.PENDING_MEASUREMENT, "aborted: " + error);
		}
		if (planned != null) {
			return new Judged(Verdict.PLANNED, "dry run: " + planned);
		}
		if (checks.isEmpty()) {
			return new Judged(Verdict.FAIL, RungOutcome.NO_CHECK);
		}
		return simulated != null
				? new Judged(Verdict.SIMULATED, "measured the engine double: " + simulated)
				: new Judged(Verdict.PASS, "all " + checks.size() + " checks passed");
	}

	private static String failed(Check check) {
		return "check " + check.name() + " failed: expected " + check.expected() + ", observed " + check.observed();
	}

	private record Judged(Verdict verdict, String because) {
	}
}
