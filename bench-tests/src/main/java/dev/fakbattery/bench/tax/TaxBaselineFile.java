package dev.fakbattery.bench.tax;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ArtifactFiles;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonNumbers;

/**
 * fak's latency-tax baseline file ({@code .vllm-tax-baseline.json}):
 * <pre>
 * {"schema": "fak.vllm-adjudication-tax-baseline.v1",
 *  "baselines": {"&lt;model&gt;::&lt;engine|no-cache&gt;": {"latency_tax": 1.12, "model": "&lt;model&gt;"}}}
 * </pre>
 * A missing file has no baselines. A file that exists but is not such a document (not JSON, wrong
 * schema, an entry without a positive {@code latency_tax}) throws {@link IllegalStateException}
 * naming the file; fak read that as "no baseline" and kept, which this does not.
 *
 * @since 0.1
 */
public final class TaxBaselineFile {

	/** The schema of the baseline file. */
	public static final String SCHEMA = "fak.vllm-adjudication-tax-baseline.v1";

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
	 * Records {@code latencyTax} (rounded to 4 dp, as fak stores it) under {@code key}, keeping
	 * every other entry; written atomically.
	 * @throws IllegalStateException if the file exists and is not a valid baseline file
	 */
	public void record(String key, double latencyTax, String model) {
		ObjectNode doc = Files.exists(file) ? read() : newDocument();
		ObjectNode entry = Json.MAPPER.createObjectNode();
		JsonNumbers.put(entry, "latency_tax", latencyTax, 4);
		entry.put("model", model);
		baselines(doc).set(key, entry);
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
