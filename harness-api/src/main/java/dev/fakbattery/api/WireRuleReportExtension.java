package dev.fakbattery.api;

import java.util.ArrayList;
import java.util.List;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.ReportLabels;
import dev.fakbattery.core.RunContext;
import dev.fakbattery.core.Verdict;
import dev.fakbattery.core.gateway.GatewayLauncher;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;

/**
 * Labels a wire rule's test for the battery report (see {@link WireRuleReport}); a rule run inside another test (the
 * wire rung's EngineTestKit run, a kit self-test) is left out. Against the embedded reference gateway the rule's verdict
 * is SIMULATED, written skipped ({@link VerdictStatus}).
 */
class WireRuleReportExtension implements BeforeEachCallback {

	/** Why a rule that held against the embedded reference gateway is not a pass of an operator's gateway. */
	static final String EMBEDDED = "the rule ran against the embedded reference gateway on recorded wires, not an operator's gateway"
			+ " (set -Dgateway.cmd or -Dgateway.url)";

	@Override
	public void beforeEach(ExtensionContext context) {
		AllureTest.of(context).ifPresent(uuid -> {
			HarnessConfig config = JupiterConfig.of(context);
			String rule = context.getParent()
					.filter(parent -> parent.getTestMethod().isPresent())
					.map(ExtensionContext::getDisplayName)
					.orElse(context.getDisplayName());
			String gateway = GatewayLauncher.describe(config);
			List<Label> labels = new ArrayList<>(List.of(new Label().setName("epic").setValue(ReportLabels.WIRE),
					new Label().setName("feature").setValue(rule), new Label().setName("story").setValue(context.getDisplayName())));
			if (gateway.equals(GatewayLauncher.EMBEDDED)) {
				labels.add(new Label().setName(ReportLabels.VERDICT).setValue(Verdict.SIMULATED.name()));
				VerdictStatus.record(uuid, Verdict.SIMULATED, EMBEDDED);
			}
			NestedReport.lifecycle(context).updateTestCase(uuid, result -> {
				result.getLabels().addAll(labels);
				result.getParameters().add(new Parameter().setName("gateway").setValue(gateway));
				result.getParameters().add(new Parameter().setName("run id").setValue(RunContext.of(config).runId()));
			});
		});
	}
}
