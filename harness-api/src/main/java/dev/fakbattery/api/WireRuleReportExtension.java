package dev.fakbattery.api;

import java.util.List;

import io.qameta.allure.Allure;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.fakbattery.api.gateway.GatewayLauncher;

/**
 * Labels a wire rule's test for the battery report (see {@link WireRuleReport}); a rule run inside another test (the
 * wire rung's EngineTestKit run, a kit self-test) is left out.
 */
class WireRuleReportExtension implements BeforeEachCallback {

	@Override
	public void beforeEach(ExtensionContext context) {
		AllureTest.of(context).ifPresent(uuid -> {
			HarnessConfig config = HarnessConfig.of(context);
			String rule = context.getParent().filter(parent -> parent.getTestMethod().isPresent())
				.map(ExtensionContext::getDisplayName).orElse(context.getDisplayName());
			List<Label> labels = List.of(new Label().setName("epic").setValue(ReportLabels.WIRE),
					new Label().setName("feature").setValue(rule), new Label().setName("story").setValue(context.getDisplayName()));
			Allure.getLifecycle().updateTestCase(uuid, result -> {
				result.getLabels().addAll(labels);
				result.getParameters().add(new Parameter().setName("gateway").setValue(GatewayLauncher.describe(config)));
				result.getParameters().add(new Parameter().setName("run id").setValue(RunContext.of(config).runId()));
			});
		});
	}
}
