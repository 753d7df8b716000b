package dev.fakbattery.core;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.core.target.TargetProbe;
import dev.fakbattery.wire.Json;

import org.apiguardian.api.API;

/**
 * The recorder a rung test writes to: what it measured and checked; injected into rung test methods.
 *
 * <p>The rung writes its own fields into {@link #body()}, records {@link Measurement}s and
 * {@link Check}s; after the test the artifact extension computes the verdict from them, writes the
 * artifact and the fail-closed extension turns a pending or failed rung into the right outcome. A
 * verdict is never assigned: a rung with no check fails.
 *
 * <h2>Example</h2>
 * <pre>
 * &#64;Test &#64;RungArtifact(ArtifactId.TAX_WITNESS)
 * void taxWitness(RungRecorder run) {
 *     Optional&lt;URI&gt; raw = run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
 *     ...
 *     run.check("tax_measured", ok, "latency_tax from 8 samples per arm", observed);
 * }
 * </pre>
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public final class RungRecorder {

	private final ArtifactId artifact;
	private final HarnessConfig config;
	private final ObjectNode body = Json.MAPPER.createObjectNode();
	private final Map<String, Measurement> measurements = new LinkedHashMap<>();
	private final List<Check> checks = new ArrayList<>();
	private final List<Check> notJudged = new ArrayList<>();
	private final Map<String, String> provenance = new LinkedHashMap<>();
	private final List<Path> attachments = new ArrayList<>();
	private final List<Measurement.Pending> invalidations = new ArrayList<>();
	private final List<Function<JsonNode, List<Check>>> artifactValidators = new ArrayList<>();
	private RunContext runContext;
	private TargetIdentity target;
	private String simulatedBecause;
	private String plannedBecause;
	private String headline;
	private String workload;

	public RungRecorder(ArtifactId artifact, HarnessConfig config) {
		this.artifact = Objects.requireNonNull(artifact);
		this.config = Objects.requireNonNull(config);
	}

	public ArtifactId artifact() {
		return artifact;
	}

	public HarnessConfig config() {
		return config;
	}

	/** The battery run this rung belongs to. */
	public RunContext runContext() {
		if (runContext == null) {
			runContext = RunContext.of(config);
		}
		return runContext;
	}

	/** Rung-specific fields of the artifact (fak's field names where the artifact mirrors one of fak's). */
	public ObjectNode body() {
		return body;
	}

	public <M extends Measurement> M record(M measurement) {
		measurements.put(measurement.name(), measurement);
		return measurement;
	}

	public Measurement.Measured measured(String name, double value, String unit, String source) {
		return record(Measurement.of(name, value, unit, source));
	}

	/**
	 * A measured value with its confidence interval, which the artifact carries as {@code ci95} beside the value;
	 * an interval that could not be computed is left out, never guessed.
	 */
	public Measurement.Measured measured(String name, double value, String unit, String source, ConfidenceInterval ci) {
		return record(ci.isBounded()
				? Measurement.of(name, value, unit, source, ci)
				: Measurement.of(name, value, unit, source));
	}

	public Measurement.Pending pending(String name, String missing, String howToProvide) {
		return record(Measurement.pending(name, missing, howToProvide));
	}

	/**
	 * The URL configured under {@code name}, or empty after recording it as pending with the fix
	 * {@code set -D<name>=http://HOST:8000/v1}.
	 */
	public Optional<URI> requireUrl(String name, String what) {
		Optional<URI> url = config.v1Url(name);
		if (url.isEmpty()) {
			pending(name, what + " is not configured", "set -D" + name + "=http://HOST:8000/v1");
		}
		return url;
	}

	/** The value configured under {@code name}, or empty after recording it as pending. */
	public Optional<String> requireConfig(String name, String what, String example) {
		Optional<String> value = config.string(name);
		if (value.isEmpty()) {
			pending(name, what + " is not configured", "set -D" + name + "=" + example);
		}
		return value;
	}

	/** Records an acceptance check computed from observed data and returns its outcome. */
	public boolean check(String name, boolean passed, String expected, String observed) {
		return check(name, passed, expected, observed, false);
	}

	/**
	 * Records an acceptance check; with {@code product}, a failure is the target's own answer (an error status, a
	 * denied byte on the wire, a malformed answer) and fails the rung even on an {@linkplain #invalid invalid}
	 * measurement ({@link Check#product()}).
	 *
	 * @since 0.5
	 */
	public boolean check(String name, boolean passed, String expected, String observed, boolean product) {
		checks.add(new Check(name, passed, expected, observed, product));
		return passed;
	}

	/**
	 * Records an acceptance check that could not be judged: nothing observed to judge it by (the engine kind only
	 * declared, never read from the engine). The artifact writes it as {@code NOT_JUDGED} beside the others, and it is
	 * the pending measurement {@code name} with {@code why} and {@code fix}: the rung is PENDING_MEASUREMENT, never
	 * PASS. It counts in no check total ({@link #checks()}).
	 *
	 * @param expected what the check requires, in words
	 * @param observed what there was instead of an observation, for example {@code vllm, declared by -Dengine.identity}
	 * @since 0.8
	 */
	public Measurement.Pending notJudged(String name, String expected, String observed, String why, String fix) {
		notJudged.add(new Check(name, false, expected, observed));
		return pending(name, "check " + name + " not judged: " + why, fix);
	}

	/** The checks recorded as not judged ({@link #notJudged}). */
	public List<Check> notJudgedChecks() {
		return List.copyOf(notJudged);
	}

	/**
	 * Asks the engine at {@code baseUrl} who it is ({@link TargetProbe}) and records the answer as this rung's
	 * target; every rung that measures an engine calls this once, before measuring. Reaching the engine double (by
	 * what it reports, or because {@code origin} is {@link TargetIdentity#EMBEDDED}) makes the verdict SIMULATED
	 * at best, whatever the profile. Under a profile that needs a real engine
	 * ({@link Profile#embeddedTargetAllowed()} false), an engine that does not identify itself
	 * ({@link TargetIdentity#unidentified()}) is the pending measurement {@code engine.identity}, never PASS;
	 * {@link HarnessConstants#ENGINE_IDENTITY} declares it instead, recorded as declared, not observed. A declaration
	 * against an engine its answers identified ({@link TargetIdentity#declarationContradicted()}) is a misconfiguration
	 * of {@code engine.identity} naming both: recorded as pending and thrown as a {@link ConfigurationException}, as is
	 * a target that is a gateway
	 * ({@link TargetIdentity#gatewayInstead()}) is a misconfiguration of {@code origin}: recorded as pending and thrown
	 * as a {@link ConfigurationException} before anything is measured through it, so that no verdict is about a server
	 * the harness did not start and was not asked to judge.
	 *
	 * @param origin how the engine was reached: {@code base.url}, {@code engine.cmd}, {@code engine.image} or
	 *        {@link TargetIdentity#EMBEDDED}
	 */
	public TargetIdentity target(URI baseUrl, String origin) {
		target = TargetProbe.identify(baseUrl, origin, config.string(HarnessConstants.API_KEY_ENV).map(System::getenv))
				.withOverride(config.string(HarnessConstants.ENGINE_IDENTITY).orElse(null));
		if (!TargetIdentity.EMBEDDED.equals(origin)) {
			target.gatewayInstead().ifPresent(why -> {
				String fix = "point -D" + origin + " at the engine itself (vLLM, SGLang, llama.cpp) and name the gateway under test "
						+ "with -D" + HarnessConstants.GATEWAY_URL + " or -D" + HarnessConstants.GATEWAY_CMD;
				pending(origin, why, fix);
				throw new ConfigurationException(why + "; " + fix);
			});
		}
		target.declarationContradicted().ifPresent(why -> {
			String fix = "remove -D" + HarnessConstants.ENGINE_IDENTITY + " (it names only an engine its answers leave unidentified)"
					+ " or point -D" + origin + " at the " + target.identityOverride() + " engine";
			pending(HarnessConstants.ENGINE_IDENTITY, why, fix);
			throw new ConfigurationException(why + "; " + fix);
		});
		target.simulatedBecause().ifPresent(this::simulated);
		if (!config.profile().embeddedTargetAllowed()) {
			target.unidentified()
					.ifPresent(why -> pending(HarnessConstants.ENGINE_IDENTITY, why, "check what serves " + baseUrl
							+ " and set -D" + HarnessConstants.ENGINE_IDENTITY
							+ "=NAME (vllm, sglang, llama.cpp), recorded as declared, not observed"));
		}
		return target;
	}

	/** The engine this rung measured, when it reached one. */
	public Optional<TargetIdentity> target() {
		return Optional.ofNullable(target);
	}

	/**
	 * Records that a measurement was invalidated by its own instrument (the engine double or the harness client
	 * lagged, the A/A noise floor was wider than its limit): it measured nothing about the gateway, so the verdict
	 * is PENDING_MEASUREMENT whatever the measurement checks say, never PASS; only a failed
	 * {@linkplain Check#product() product check} (the target answered wrong) still makes it FAIL, the reading beside it.
	 *
	 * @param reading what the instrument read, for example {@code engine double lag p99 1830 us > 1000 us}
	 * @param fix how to get a valid measurement
	 */
	public Measurement.Pending invalid(String name, String reading, String fix) {
		Measurement.Pending pending = pending(name, "invalid measurement, its own instrument says so: " + reading, fix);
		invalidations.add(pending);
		return pending;
	}

	/** Checks computed from the artifact as it is written (without its verdict), added before the verdict. */
	public void validateArtifact(Function<JsonNode, List<Check>> validator) {
		artifactValidators.add(Objects.requireNonNull(validator));
	}

	/** Marks this run as measured on the engine double: the verdict becomes SIMULATED at best. */
	public void simulated(String because) {
		Objects.requireNonNull(because);
		if (simulatedBecause == null) {
			simulatedBecause = because;
		}
	}

	/** Marks this run as a dry run: the verdict becomes PLANNED at best. */
	public void planned(String because) {
		this.plannedBecause = Objects.requireNonNull(because);
	}

	/** One headline figure for the summary table. */
	public void headline(String text) {
		this.headline = text;
	}

	/**
	 * The load this rung applied, in one line, for example {@code 8 streamed samples per arm, max_tokens 64}; the
	 * artifact carries it as {@code workload} and the report shows it beside engine and model.
	 */
	public void workload(String text) {
		this.workload = Objects.requireNonNull(text);
	}

	/** Overrides a provenance field, for example {@code engine_version} read from the engine. */
	public void provenance(String field, String value) {
		provenance.put(field, value);
	}

	/** Another file (a plot, raw samples) to attach to the report beside the artifact. */
	public void attach(Path file) {
		attachments.add(file);
	}

	public List<Measurement> measurements() {
		return List.copyOf(measurements.values());
	}

	public List<Measurement.Pending> pendings() {
		return measurements.values()
				.stream()
				.filter(Measurement.Pending.class::isInstance)
				.map(Measurement.Pending.class::cast)
				.toList();
	}

	public List<Check> checks() {
		return List.copyOf(checks);
	}

	public Optional<String> simulatedBecause() {
		return Optional.ofNullable(simulatedBecause);
	}

	public Optional<String> plannedBecause() {
		return Optional.ofNullable(plannedBecause);
	}

	public Optional<String> headline() {
		return Optional.ofNullable(headline);
	}

	public Optional<String> workload() {
		return Optional.ofNullable(workload);
	}

	/** The measurements invalidated by their own instrument ({@link #invalid}). */
	public List<Measurement.Pending> invalidations() {
		return List.copyOf(invalidations);
	}

	/** Runs the artifact validators over {@code draft} once, adding their checks. */
	public void validate(JsonNode draft) {
		List<Function<JsonNode, List<Check>>> validators = List.copyOf(artifactValidators);
		artifactValidators.clear();
		for (Function<JsonNode, List<Check>> validator : validators) {
			checks.addAll(validator.apply(draft));
		}
	}

	Map<String, String> provenanceOverrides() {
		return provenance;
	}

	public List<Path> attachments() {
		return List.copyOf(attachments);
	}
}
