package dev.fakbattery.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.JsonDocument;

import org.apiguardian.api.API;

/**
 * Inputs a rung reads but the run did not produce: the floor artifacts of {@code floors.dir}, a SWE-bench run folder
 * validated without its runner. Such an input counts as measured only with its own provenance, which the rung
 * records in its artifact's {@value #FIELD} block and the final gate shows as pre-produced; without it the rung is
 * PENDING_MEASUREMENT naming what is missing. A test fixture (a folder holding a {@value #FIXTURE_FILE} file, a JSON
 * file with a {@value #FIXTURE_FIELD} field) is refused, except by the self-tests ({@link #fixturesAllowed}).
 *
 * <p>Provenance fields, each read from the artifact itself, then its {@code provenance} object, then the folder's
 * {@value #PROVENANCE_FILE}: {@code producer} (what wrote it, for example {@code fak swebench compare}),
 * {@code version} (the producer's version), {@code generated_at} (an ISO-8601 instant) and, for the floors,
 * {@code binary_sha256} (the sha256 of the fak binary that wrote it), which the artifact's own {@code run} block
 * ({@code run.run_id} and {@code run.git_commit}) may stand in for.
 *
 * @since 0.5
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class PreProduced {

	/** The artifact block naming the pre-produced inputs and their provenance: {@value}. */
	public static final String FIELD = "pre_produced";

	/** The provenance file of a folder of pre-produced artifacts: {@value}. */
	public static final String PROVENANCE_FILE = "PROVENANCE.json";

	/** The file that marks a folder as test fixtures: {@value}. */
	public static final String FIXTURE_FILE = "FIXTURE";

	/** The JSON field that marks a file as a test fixture: {@value}. */
	public static final String FIXTURE_FIELD = "_fixture";

	/** The provenance every pre-produced artifact names. */
	public static final List<String> REQUIRED = List.of("producer", "version", "generated_at");

	/** The floors' fak binary hash: {@value}. */
	public static final String BINARY_SHA256 = "binary_sha256";

	private PreProduced() {
	}

	/**
	 * The provenance of one pre-produced artifact as read.
	 *
	 * @param file the artifact
	 * @param fields producer, version, generated_at, binary_sha256 and the artifact's run id and commit where given
	 * @param missing what is missing or malformed; empty when the provenance is complete
	 */
	public record Entry(Path file, ObjectNode fields, List<String> missing) {

		public Entry {
			missing = List.copyOf(missing);
		}

		public boolean complete() {
			return missing.isEmpty();
		}
	}

	/**
	 * Whether a fixture may be read as a rung's input: only with {@code fixtures.allowed=true} in the default profile,
	 * which is how the self-tests run their rungs; every other profile refuses one.
	 */
	public static boolean fixturesAllowed(HarnessConfig config) {
		return config.profile() == Profile.DEFAULT && config.get(ConfigKeys.FIXTURES_ALLOWED);
	}

	/** The fixture marker of {@code folder} or of one of {@code files}: its path and kind; empty when none. */
	public static Optional<String> fixtureMarker(Path folder, List<Path> files) {
		if (Files.isRegularFile(folder.resolve(FIXTURE_FILE))) {
			return Optional.of(FIXTURE_FILE + " file " + folder.resolve(FIXTURE_FILE));
		}
		for (Path file : files) {
			if (read(file).map(doc -> doc.has(FIXTURE_FIELD)).orElse(false)) {
				return Optional.of(FIXTURE_FIELD + " field in " + file);
			}
		}
		return Optional.empty();
	}

	/**
	 * Refuses a test fixture as the input named by {@code parameter}: records a failed check naming the marker and its
	 * path, and returns true; returns false (records nothing) when there is no marker or fixtures are allowed.
	 */
	public static boolean refuseFixture(RungRecorder run, String parameter, Path folder, List<Path> files) {
		Optional<String> marker = fixtureMarker(folder, files);
		if (marker.isEmpty() || fixturesAllowed(run.config())) {
			return false;
		}
		run.check("input_not_a_fixture", false, "-D" + parameter + " names measured artifacts, not test fixtures",
				"test fixture, not a measurement: " + marker.get() + "; point -D" + parameter + " at real artifacts ("
						+ HarnessConstants.FIXTURES_ALLOWED + " is honoured only by the self-tests, in the default profile; profile "
						+ run.config().profile().id() + ")");
		return true;
	}

	/**
	 * The provenance of {@code file}, found in {@code folder}.
	 *
	 * @param binaryHash whether the artifact needs the hash of the binary that wrote it (the floors), or its own run
	 */
	public static Entry read(Path folder, Path file, boolean binaryHash) {
		JsonNode doc = read(file).orElse(Json.MAPPER.createObjectNode());
		JsonNode sidecar = read(folder.resolve(PROVENANCE_FILE)).orElse(Json.MAPPER.createObjectNode());
		ObjectNode fields = Json.MAPPER.createObjectNode();
		List<String> missing = new ArrayList<>();
		for (String name : REQUIRED) {
			Optional<String> value = field(name, doc, sidecar);
			fields.put(name, value.orElse(null));
			if (value.isEmpty()) {
				missing.add(name);
			}
		}
		String generatedAt = fields.path("generated_at").asText("");
		if (!generatedAt.isEmpty() && !instant(generatedAt)) {
			missing.add("generated_at (not an ISO-8601 instant: " + generatedAt + ")");
		}
		if (binaryHash) {
			Optional<String> hash = field(BINARY_SHA256, doc, sidecar);
			fields.put(BINARY_SHA256, hash.orElse(null));
			String runId = text(doc.path("run").path("run_id")).orElse(null);
			String commit = text(doc.path("run").path("git_commit")).orElse(null);
			if (runId != null && commit != null) {
				fields.put("run_id", runId).put("git_commit", commit);
			}
			if (hash.isPresent() && !hash.get().matches("[0-9a-fA-F]{64}")) {
				missing.add(BINARY_SHA256 + " (not a sha256: " + hash.get() + ")");
			}
			else if (hash.isEmpty() && (runId == null || commit == null)) {
				missing.add(BINARY_SHA256 + " (or the artifact's own run.run_id and run.git_commit)");
			}
		}
		return new Entry(file, fields, missing);
	}

	/**
	 * Records the {@value #FIELD} block of {@code source} in the rung's artifact (with {@code fixture}, the fixture
	 * marker where the self-tests read one), and one pending measurement per entry whose provenance is incomplete,
	 * naming what is missing and {@code fix}.
	 */
	public static void record(RungRecorder run, Path source, List<Entry> entries, String fix) {
		ObjectNode block = run.body().putObject(FIELD);
		block.put("source", source.toString());
		// read only where fixtures are allowed (the self-tests); the final gate never counts such a block
		block.put("fixture", fixtureMarker(source, entries.stream().map(Entry::file).toList()).orElse(null));
		ArrayNode artifacts = block.putArray("artifacts");
		for (Entry entry : entries) {
			ObjectNode node = artifacts.addObject().put("file", entry.file().toString());
			node.setAll(entry.fields());
			entry.missing().forEach(node.putArray("missing")::add);
			if (!entry.complete()) {
				run.pending(FIELD + "." + entry.file().getFileName(), "pre-produced " + entry.file() + " has no provenance: missing "
						+ String.join(", ", entry.missing()), fix);
			}
		}
	}

	private static Optional<String> field(String name, JsonNode doc, JsonNode sidecar) {
		return text(doc.path(name)).or(() -> text(doc.path("provenance").path(name))).or(() -> text(sidecar.path(name)));
	}

	private static Optional<String> text(JsonNode node) {
		return node.isValueNode() && !node.isNull() && !node.asText().isBlank() ? Optional.of(node.asText().strip()) : Optional.empty();
	}

	private static boolean instant(String text) {
		try {
			Instant.parse(text);
			return true;
		}
		catch (DateTimeParseException e) {
			return false;
		}
	}

	private static Optional<JsonNode> read(Path file) {
		if (!Files.isRegularFile(file) || !file.getFileName().toString().endsWith(".json")) {
			return Optional.empty();
		}
		return JsonDocument.read(file).root();
	}
}
