package dev.fakbattery.api;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;

/**
 * What one rung test measured and checked; injected into rung test methods.
 *
 * <p>The rung writes its own fields into {@link #body()}, records {@link Measurement}s and
 * {@link Check}s; after the test the artifact extension computes the verdict from them, writes the
 * artifact and the fail-closed extension turns a pending or failed rung into the right outcome. A
 * verdict is never assigned: a rung with no check fails.
 *
 * <h2>Example</h2>
 * <pre>
 * &#64;Test &#64;RungArtifact(ArtifactId.VLLM_TAX)
 * void taxWitness(RungRun run) {
 *     Optional&lt;URI&gt; raw = run.requireUrl(HarnessConstants.BASE_URL, "raw engine base URL");
 *     ...
 *     run.check("tax_measured", ok, "latency_tax from 8 samples per leg", observed);
 * }
 * </pre>
 *
 * @since 0.1
 */
public final class RungRun {

	private final ArtifactId artifact;
	private final HarnessConfig config;
	private final ObjectNode body = Json.MAPPER.createObjectNode();
	private final Map<String, Measurement> measurements = new LinkedHashMap<>();
	private final List<Check> checks = new ArrayList<>();
	private final Map<String, String> provenance = new LinkedHashMap<>();
	private final List<Path> attachments = new ArrayList<>();
	private String simulatedBecause;
	private String plannedBecause;
	private String headline;

	public RungRun(ArtifactId artifact, HarnessConfig config) {
		this.artifact = Objects.requireNonNull(artifact);
		this.config = Objects.requireNonNull(config);
	}

	public ArtifactId artifact() {
		return artifact;
	}

	public HarnessConfig config() {
		return config;
	}

	/** Rung-specific fields of the artifact (seed field names where the artifact is the seed's). */
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
		checks.add(new Check(name, passed, expected, observed));
		return passed;
	}

	/** Marks this run as measured on the engine double: the verdict becomes SIMULATED at best. */
	public void simulated(String because) {
		this.simulatedBecause = Objects.requireNonNull(because);
	}

	/** Marks this run as a dry run: the verdict becomes PLANNED at best. */
	public void planned(String because) {
		this.plannedBecause = Objects.requireNonNull(because);
	}

	/** One headline figure for the summary table. */
	public void headline(String text) {
		this.headline = text;
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
		return measurements.values().stream()
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

	Map<String, String> provenanceOverrides() {
		return provenance;
	}

	List<Path> attachments() {
		return List.copyOf(attachments);
	}
}
