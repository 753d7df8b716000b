package dev.fakbattery.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import dev.fakbattery.core.ArtifactFiles;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.qameta.allure.model.Label;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResult;

@DisplayName("the final gate in the battery report")
class GateReportTests {

	@TempDir
	Path experiments;

	@TempDir
	Path results;

	@Test
	@DisplayName("a SIMULATED battery is skipped with its reason, never passed; one step per required artifact; files attached")
	void simulated() {
		new RunFixture(experiments, "20261130T201345Z").finalCheck("SIMULATED", "PENDING_MEASUREMENT");
		ArtifactFiles.writeString(experiments.resolve("FINAL-CHECK.md"), "# Final check");
		Path plot = ArtifactFiles.writeString(experiments.resolve("ratios.png"), "png");
		TestResult result = GateReport.write(experiments, results, List.of(plot, experiments.resolve("absent.json")));
		assertThat(result.getStatus()).isEqualTo(Status.SKIPPED);
		assertThat(result.getName()).isEqualTo("final gate [SIMULATED]");
		assertThat(result.getStatusDetails().getMessage()).isEqualTo("SIMULATED: battery SIMULATED, final gate PENDING_MEASUREMENT, "
				+ "5/8 required artifacts passed; SIMULATED [vllm_tax]; no authority draft (SIMULATED artifacts)");
		assertThat(result.getLabels()).extracting(Label::getName, Label::getValue)
				.contains(
						org.assertj.core.groups.Tuple.tuple("epic", "Battery"),
						org.assertj.core.groups.Tuple.tuple("feature", "final gate"));
		assertThat(result.getSteps()).extracting(StepResult::getName, StepResult::getStatus)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("3 tax: SIMULATED", Status.SKIPPED));
		assertThat(result.getAttachments()).extracting(a -> a.getName())
				.containsExactly("final-check.json", "FINAL-CHECK.md", "ratios.png");
		assertThat(results.resolve(result.getUuid() + "-result.json")).isRegularFile();
		assertThat(results.resolve(result.getAttachments().get(2).getSource())).hasContent("png");
	}

	@Test
	@DisplayName("a step over pre-produced inputs says so, with their provenance; the message lists them")
	void preProduced() {
		Path check = new RunFixture(experiments, "20261130T201345Z-3fa9c2").finalCheck("COMPLETE", "COMPLETE");
		var doc = (com.fasterxml.jackson.databind.node.ObjectNode) RunSnapshot.readJson(check);
		((com.fasterxml.jackson.databind.node.ObjectNode) doc.path("steps").get(0)).put("verdict", "PASS")
				.put("artifact_status", "PASS")
				.putObject("pre_produced")
				.put("source", "/data/floors")
				.putArray("artifacts")
				.addObject()
				.put("producer", "fak floors");
		((com.fasterxml.jackson.databind.node.ObjectNode) doc.path("summary")).putArray("pre_produced").add("floors");
		ArtifactFiles.writeJson(check, doc);
		TestResult result = GateReport.write(experiments, results, List.of());
		assertThat(result.getStatusDetails().getMessage()).contains("; pre-produced [floors]");
		StepResult step = result.getSteps().get(0);
		assertThat(step.getName()).isEqualTo("3 tax: PASS (pre-produced)");
		assertThat(step.getParameters()).anySatisfy(p -> {
			assertThat(p.getName()).isEqualTo("pre-produced");
			assertThat(p.getValue()).isEqualTo("/data/floors [{\"producer\":\"fak floors\"}]");
		});
	}

	@Test
	@DisplayName("the report's title leads with the battery verdict and the count of real passes")
	void title() {
		new RunFixture(experiments, "20261130T201345Z").finalCheck("SIMULATED", "PENDING_MEASUREMENT");
		assertThat(GateReport.title(experiments)).isEqualTo("fak-battery: SIMULATED, 5/8 required artifacts passed on a real target "
				+ "(run 20261130T201345Z)");
		assertThatThrownBy(() -> GateReport.title(experiments.resolve("none"))).isInstanceOf(IllegalArgumentException.class)
				.hasMessageStartingWith("no final-check.json in ");
	}

	@Test
	@DisplayName("only a COMPLETE battery passes; FAIL fails")
	void statuses() {
		assertThat(GateReport.status("COMPLETE")).isEqualTo(Status.PASSED);
		assertThat(GateReport.status("FAIL")).isEqualTo(Status.FAILED);
		assertThat(GateReport.status("PENDING_MEASUREMENT")).isEqualTo(Status.SKIPPED);
		assertThat(GateReport.status("SIMULATED")).isEqualTo(Status.SKIPPED);
	}

	@Test
	@DisplayName("without final-check.json the step fails, naming the gate to run first")
	void noFinalCheck() {
		assertThatThrownBy(() -> GateReport.write(experiments, results, List.of())).isInstanceOf(IllegalArgumentException.class)
				.hasMessage("no final-check.json in " + experiments + ": run the final gate first (FinalGateMain write)");
	}
}
