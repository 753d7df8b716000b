package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.Check;
import dev.fakbattery.core.Measurement;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.load.ClientLag;
import dev.fakbattery.core.stats.Interleaving;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("futility: a tax witness whose client already lags past the margin at its first look stops there")
class WitnessFutilityTests {

	private static final UpstreamLag.Reading CALM = new UpstreamLag.Reading(500, 80, 400, 700);

	@TempDir
	Path dir;

	/** A look over {@code readings}, one per stretch in run order, at a plan of 8 then 16 per arm. */
	private static WitnessLook look(Futility rule, ClientLag... readings) {
		Deque<ClientLag> queue = new ArrayDeque<>(List.of(readings));
		WitnessLook look = new WitnessLook(8, 16, queue::removeFirst, rule);
		for (int sent = 1; sent <= 16; sent++) {
			look.sent(sent);
		}
		return look;
	}

	@Test
	@DisplayName("every quarter of the first look over 1.25 ms stops, naming the four readings; one quarter that kept pace goes on")
	void ruleOnTheFirstLook() {
		assertThat(look(Futility.DEFAULT, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE).stop())
				.hasValueSatisfying(reading -> assertThat(reading).isEqualTo("load client lag p99 over 1250 us (1.25 x its 1000 us limit) "
						+ "in every quarter of the first look (8 conversations per arm): 2401, 2401, 2401, 2401 us"));
		assertThat(look(Futility.DEFAULT, Synthetic.LATE, Synthetic.LATE, Synthetic.QUIET, Synthetic.LATE).stop()).isEmpty();
		assertThat(look(Futility.DEFAULT, Synthetic.QUIET, Synthetic.QUIET, Synthetic.QUIET, Synthetic.QUIET).stop()).isEmpty();
		assertThat(look(Futility.NEVER, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE).stop()).as("forced").isEmpty();
		WitnessLook late = look(Futility.DEFAULT, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE, Synthetic.LATE);
		assertThat(late.total(Synthetic.QUIET).count()).as("the run's lag keeps every stretch").isEqualTo(5 * 3);

		WitnessLook oneLook = new WitnessLook(8, 8, () -> Synthetic.LATE, Futility.DEFAULT);
		for (int sent = 1; sent <= 16; sent++) {
			oneLook.sent(sent);
		}
		assertThat(oneLook.stop()).as("a plan whose first look is its cap has no look before the end").isEmpty();
		assertThat(oneLook.p99s()).as("and no quarters recorded").isEmpty();
		assertThat(late.p99s()).containsExactly(Synthetic.LATE.p99Micros(), Synthetic.LATE.p99Micros(), Synthetic.LATE.p99Micros(),
				Synthetic.LATE.p99Micros());
	}

	@Test
	@DisplayName("a witness whose rule fires sends its first look, no A/A, and is PENDING on futility; without the rule it runs on")
	void witnessStopsAtItsFirstLook() throws IOException {
		TaxSettings settings = Synthetic.settings(dir, Map.of("tax.count", "16", "tax.warmup", "1"));
		assertThat(settings.witnessPlan().looks()).as("a look before the cap").hasSizeGreaterThan(1);
		int first = settings.witnessPlan().first();
		try (EngineDouble engine = EngineDouble.builder().timing(dev.fakbattery.engine.TimingModel.instant()).start()) {
			TaxUpstream upstream = TaxUpstream.simulated(URI.create(engine.baseUrl()), Dialect.VLLM, "the engine double",
					new UpstreamLag() {
						@Override
						public void reset() {
						}

						@Override
						public Reading read() {
							return CALM;
						}
					}, "none");
			// the raw engine stands in for the gateway: the rule, not the gateway, is under test
			TaxRuns stopped = TaxWitness.measure(settings, upstream, URI.create(engine.baseUrl()), engine.model(), new Futility(-1));
			assertThat(stopped.futility()).hasValueSatisfying(r -> assertThat(r).startsWith("load client lag p99 over -1 us"));
			assertThat(stopped.raw().conversations()).isEqualTo(first);
			assertThat(stopped.gateway().conversations()).isEqualTo(first);
			assertThat(stopped.aaFirst().samples()).isEmpty();
			assertThat(stopped.aaSecond().samples()).isEmpty();

			RungRecorder run = write(settings, stopped);
			assertThat(run.invalidations()).extracting(Measurement.Pending::name).contains("futility");
			Measurement.Pending futility = run.invalidations().stream().filter(p -> p.name().equals("futility")).findFirst().orElseThrow();
			assertThat(futility.missing()).contains("stopped at its first look, the A/A not run", "load client lag p99 over -1 us");
			assertThat(futility.howToProvide()).endsWith("-Dcalibration.force=witness");
			assertThat(run.checks()).extracting(Check::name).doesNotContain("tax_measured", "aa_raw_a_chat", "aa_raw_b_chat");
			assertThat(run.checks()).allMatch(Check::passed);
			assertThat(run.pendings()).extracting(Measurement.Pending::name).doesNotContain("tax.count");
			assertThat(run.body().at("/futility_stop/rule").asText()).isEqualTo(Futility.WITNESS_RULE);
			assertThat(stopped.firstLookLag()).as("the four quarters the rule read").hasSize(Futility.WITNESS_STRETCHES);
			assertThat(run.body().get("first_look_client_lag_p99_us")).extracting(JsonNode::asDouble)
					.containsExactlyElementsOf(stopped.firstLookLag().stream().map(p99 -> (double) Math.round(p99)).toList());

			// the same plan, stopping by its interval at the first look, so that the quiet run is as short
			TaxSettings wide = Synthetic.settings(dir, Map.of("tax.count", "16", "tax.warmup", "1", "stop.halfwidth", "1"));
			TaxRuns full = TaxWitness.measure(wide, upstream, URI.create(engine.baseUrl()), engine.model(), Futility.NEVER);
			assertThat(full.futility()).isEmpty();
			assertThat(full.aaFirst().samples()).isNotEmpty();
			// at least the first look (a loaded machine can keep the sequential stop from deciding there)
			assertThat(full.aaFirst().conversations()).isGreaterThanOrEqualTo(first);
			RungRecorder ranOn = write(wide, full);
			assertThat(ranOn.body().has("futility_stop")).isFalse();
			assertThat(ranOn.body().get("first_look_client_lag_p99_us")).as("recorded where the witness ran on too")
					.hasSize(Futility.WITNESS_STRETCHES);
		}
	}

	@Test
	@DisplayName("a gateway answering 500 in the first look is FAIL, a product check, though the witness stopped for futility")
	void productFailureStillFails() {
		List<InterleavingRunner.Sample> raw = new ArrayList<>();
		List<InterleavingRunner.Sample> gateway = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			raw.add(new InterleavingRunner.Sample(2 * i, Synthetic.ok("raw", i, 10, 100, 8)));
			gateway.add(new InterleavingRunner.Sample(2 * i + 1,
					i == 3 ? Synthetic.failed("gateway", i, 500) : Synthetic.ok("gateway", i, 10, 101, 8)));
		}
		TaxRuns runs = new TaxRuns(new ArmReport("raw_vllm", raw), new ArmReport("gateway", gateway), new ArmReport("aa_raw_a", List.of()),
				new ArmReport("aa_raw_b", List.of()), Interleaving.abba(8, 1), 0, java.util.Optional.of(CALM), java.util.Optional.empty(),
				Synthetic.LATE, java.util.Optional.empty(), java.util.Optional.empty())
				.stoppedForFutility("load client lag p99 over 1250 us");
		RungRecorder run = write(Synthetic.settings(dir, Map.of("tax.count", "8")), runs);
		assertThat(Synthetic.check(run, "gateway_chat").passed()).isFalse();
		assertThat(Synthetic.check(run, "gateway_chat").product()).isTrue();
		assertThat(run.invalidations()).extracting(Measurement.Pending::name).contains("futility");
	}

	/**
	 * The false-stop rate on recorded series: the witness artifacts that record their first look's quarters
	 * ({@code first_look_client_lag_p99_us}) and, as the closest series to them, the sweep levels at concurrency 1
	 * ({@code batch_client_lag_p99_us}), one request at a time as the witness sends, whose first ABBA block's four batches
	 * are four consecutive stretches of a single-stream run as the witness's quarters are. Of the single-stream series
	 * that ended within the client's limit none may stop; over every recorded series at most 5 % may.
	 */
	@Test
	@DisplayName("on the recorded lag series: no single-stream level that ended valid, and at most 5 % of all, would have stopped")
	void recordedSeries() throws IOException {
		int valid = 0;
		int falseStops = 0;
		int singleValid = 0;
		int singleFalseStops = 0;
		int stoppedInvalid = 0;
		for (JsonNode level : series()) {
			List<Double> quarters = new ArrayList<>();
			level.path("first_look_client_lag_p99_us").elements().forEachRemaining(p99 -> quarters.add(p99.asDouble()));
			level.path("batch_client_lag_p99_us").elements().forEachRemaining(arm -> {
				for (int i = 0; i < Futility.LOOK_BATCHES_PER_ARM && i < arm.size(); i++) {
					quarters.add(arm.get(i).asDouble());
				}
			});
			boolean stops = Futility.DEFAULT.judgeWitness(quarters, 1).isPresent();
			// a witness sends one request at a time, as a sweep level at c=1 does
			boolean single = level.path("concurrency").asInt() == 1 || level.has("first_look_client_lag_p99_us");
			if (level.path("client_lag").path("within_limit").asBoolean()) {
				valid++;
				falseStops += stops ? 1 : 0;
				singleValid += single ? 1 : 0;
				singleFalseStops += single && stops ? 1 : 0;
			}
			else {
				stoppedInvalid += stops ? 1 : 0;
			}
		}
		assertThat(singleValid).as("recorded single-stream levels that ended valid").isGreaterThanOrEqualTo(10);
		assertThat(singleFalseStops).as("single-stream levels that ended valid and would have stopped").isZero();
		assertThat(valid).isGreaterThanOrEqualTo(50);
		assertThat((double) falseStops / valid).as("false stops: %d of %d valid levels", falseStops, valid).isLessThanOrEqualTo(0.05);
		assertThat(stoppedInvalid).as("the rule can fire on a recorded level that ended invalid").isPositive();
	}

	/** The sweep levels and the witness runs recorded under experiments/ with their first look's quarters. */
	private static List<JsonNode> series() throws IOException {
		List<JsonNode> series = new ArrayList<>(FutilityTests.recordedLevels(Path.of("..", "experiments")));
		try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(Path.of("..", "experiments"))) {
			for (Path file : files.filter(f -> f.getFileName().toString().equals("adjudication-tax-witness.json")).toList()) {
				JsonNode witness = dev.fakbattery.wire.Json.MAPPER.readTree(file.toFile());
				if (witness.path("first_look_client_lag_p99_us").size() == Futility.WITNESS_STRETCHES) {
					series.add(witness);
				}
			}
		}
		return series;
	}

	private static RungRecorder write(TaxSettings settings, TaxRuns runs) {
		RungRecorder run = Synthetic.run(ArtifactId.TAX_WITNESS);
		run.body().putObject("gateway_process").put("mode", "started").put("description", "embedded");
		TaxReport.write(run, settings, Synthetic.simulated(CALM), "m", runs);
		return run;
	}
}
