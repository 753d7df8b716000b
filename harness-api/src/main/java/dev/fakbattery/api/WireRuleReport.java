package dev.fakbattery.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Puts each test of the annotated class in the battery report as a wire rule run against one target: epic
 * {@link ReportLabels#WIRE}, the rule (the test method's display name, {@code W03 deny dropped}) as feature, the
 * target (the invocation's display name, {@code vllm stream}) as story, and the gateway under test and the run id
 * as parameters. Annotate the class that runs the rules against the configured gateway under test, not the kit's
 * self-tests. Tagged {@value Rung#TAG}, as every rung, so the measuring profiles' tag filter takes such a class where it
 * runs on its own; run inside a rung that reports each rule run ({@link NestedReport}), its tests are labelled the same.
 *
 * @since 0.3
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(WireRuleReportExtension.class)
@Tag(Rung.TAG)
public @interface WireRuleReport {
}
