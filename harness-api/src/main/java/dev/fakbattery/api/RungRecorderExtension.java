package dev.fakbattery.api;

import java.lang.reflect.Method;
import java.util.Optional;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Creates the {@link RungRecorder} of each rung test and injects it.
 */
class RungRecorderExtension implements BeforeEachCallback, ParameterResolver {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RungRecorderExtension.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		ArtifactId artifact = declaredArtifact(context);
		context.getStore(NAMESPACE).put(RungRecorder.class, new RungRecorder(artifact, JupiterConfig.of(context)));
	}

	@Override
	public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
		return parameter.getParameter().getType() == RungRecorder.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
		return runOf(context).orElseThrow(() -> new ConfigurationException(
				"RungRecorder can only be injected into test methods of a @Rung class"));
	}

	static Optional<RungRecorder> runOf(ExtensionContext context) {
		return Optional.ofNullable(context.getStore(NAMESPACE).get(RungRecorder.class, RungRecorder.class));
	}

	private static ArtifactId declaredArtifact(ExtensionContext context) {
		Method method = context.getRequiredTestMethod();
		return AnnotationSupport.findAnnotation(method, RungArtifact.class)
				.or(() -> AnnotationSupport.findAnnotation(context.getRequiredTestClass(), RungArtifact.class))
				.map(RungArtifact::value)
				.orElseThrow(() -> new ConfigurationException("Rung test [" + method.getName()
						+ "] declares no @RungArtifact: annotate the method or its class with the artifact it writes."));
	}
}
