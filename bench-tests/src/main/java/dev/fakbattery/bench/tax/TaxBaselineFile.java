package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalDouble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.core.stats.ConfidenceInterval;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

/**
 * fak's latency-tax baseline file ({@code .vllm-tax-baseline.json}), one entry per {@link TaxBaselineKey}:
 * <pre>
 * {"schema": "fak.vllm-adjudication-tax-baseline.v1",
 *  "baselines": {"gateway=...|engine=vllm 0.11.0|model=m|workload=...|host=...": {"latency_tax": 1.12, "model": "m",
 *      "gateway": "...", "engine": "vllm", "engine_version": "0.11.0", "workload": "...", "host_class": "...",
 *      "readings": [{"latency_tax": 1.13, "latency_tax_ci95": [1.11, 1.15], "verdict": "KEEP", "at": "..."}]}}}
 * </pre>
 * {@code latency_tax} is the baseline; {@code readings} the most recent {@value #MAX_READINGS} valid readings recorded
 * against it. fak's own entries, under {@code <model>::<engine|no-cache>}, stay readable and are kept as they are, but
 * no key of this form ever matches them ({@link #legacyKeys()}). A missing file has no baselines. A file that exists but is not such a document (not JSON, wrong
 * schema, an entry without a positive {@code latency_tax}) throws {@link IllegalStateException}
 * naming the file; fak read that as "no baseline" and kept, which this does not.
 *
 * @since 0.1
 */
public final class TaxBaselineFile {

	/** The schema of the baseline file. */
	public static final String SCHEMA = "fak.vllm-adjudication-tax-baseline.v1";

	/** Readings kept per entry, the most recent. */
	public static final int MAX_READINGS = 20;

	private final Path file;

	/** @param file the baseline file; it need not exist yet */
	public TaxBaselineFile(Path file) {
		this.file = file;
	}

	public Path path() {
		return file;
	}

	/**
	 * The baseline latency tax recorded under {@code key}, or empty when there is none.
	 * @throws IllegalStateException if the file exists and is not a valid baseline file
	 */
	public OptionalDouble latencyTax(String key) {
		if (!Files.exists(file)) {
			return OptionalDouble.empty();
		}
		JsonNode entry = baselines(read()).get(key);
		if (entry == null) {
			return OptionalDouble.empty();
		}
		JsonNode tax = entry.isObject() ? entry.get("latency_tax") : null;
		if (tax == null || !tax.isNumber() || !(tax.asDouble() > 0) || Double.isInfinite(tax.asDouble())) {
			throw invalid("baselines[\"" + key + "\"] has no positive number latency_tax: " + entry);
		}
		return OptionalDouble.of(tax.asDouble());
	}

	/**
	 * The keys of fak's form ({@code <model>::<engine>}, {@link TaxBaselineKey#legacy}) in the file; empty when it does
	 * not exist.
	 * @throws IllegalStateException if the file exists and is not a valid baseline file
	 */
	public java.util.List<String> legacyKeys() {
		if (!Files.exists(file)) {
			return java.util.List.of();
		}
		java.util.List<String> keys = new java.util.ArrayList<>();
		baselines(read()).fieldNames().forEachRemaining(keys::add);
		return keys.stream().filter(TaxBaselineKey::legacy).toList();
	}

	/**
	 * Records under {@code key} the baseline {@code baselineTax} (rounded to 4 dp, as fak stores it), the key's parts,
	 * and {@code reading} with its 95 % interval and {@code verdict} appended to its readings (the most recent
	 * {@value #MAX_READINGS} kept), keeping every other entry; written atomically.
	 * @throws IllegalStateException if the file exists and is not a valid baseline file
	 */
	public void record(TaxBaselineKey key, double baselineTax, ConfidenceInterval reading, TaxVerdict verdict) {
		ObjectNode doc = Files.exists(file) ? read() : newDocument();
		JsonNode previous = baselines(doc).get(key.id());
		ObjectNode entry = Json.MAPPER.createObjectNode();
		JsonNumbers.put(entry, "latency_tax", baselineTax, 4);
		entry.put("model", key.model());
		entry.put("gateway", key.gateway());
		entry.put("engine", key.engine());
		entry.put("engine_version", key.engineVersion());
		entry.put("workload", key.workload());
		entry.put("host_class", key.hostClass());
		ArrayNode readings = entry.putArray("readings");
		if (previous != null && previous.path("readings").isArray()) {
			previous.path("readings").forEach(readings::add);
		}
		ObjectNode row = readings.addObject();
		JsonNumbers.put(row, "latency_tax", reading.estimate(), 4);
		JsonNumbers.putPair(row, "latency_tax_ci95", reading.lo(), reading.hi(), 4);
		row.put("verdict", verdict.name());
		row.put("at", Instant.now().toString());
		while (readings.size() > MAX_READINGS) {
			readings.remove(0);
		}
		baselines(doc).set(key.id(), entry);
		ArtifactFiles.writeJson(file, doc);
	}

	private ObjectNode read() {
		JsonNode doc;
		try {
			doc = Json.MAPPER.readTree(file.toFile());
		}
		catch (IOException e) {
			String detail = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.toString();
			throw invalid("not readable JSON (" + detail + ")", e);
		}
		if (doc == null || !doc.isObject()) {
			throw invalid("not a JSON object");
		}
		JsonNode schema = doc.get("schema");
		if (schema == null || !SCHEMA.equals(schema.asText(null))) {
			throw invalid("schema is " + schema + ", expected \"" + SCHEMA + "\"");
		}
		baselines(doc);
		return (ObjectNode) doc;
	}

	private ObjectNode baselines(JsonNode doc) {
		JsonNode baselines = doc.get("baselines");
		if (baselines == null || !baselines.isObject()) {
			throw invalid("\"baselines\" is not an object");
		}
		return (ObjectNode) baselines;
	}

	private static ObjectNode newDocument() {
		ObjectNode doc = Json.MAPPER.createObjectNode();
		doc.put("schema", SCHEMA);
		doc.putObject("baselines");
		return doc;
	}

	private IllegalStateException invalid(String what) {
		return invalid(what, null);
	}

	private IllegalStateException invalid(String what, Exception cause) {
		return new IllegalStateException("latency-tax baseline file " + file + " is invalid: " + what
				+ "; fix or delete it (a corrupt baseline is never read as 'no baseline')", cause);
	}
}
