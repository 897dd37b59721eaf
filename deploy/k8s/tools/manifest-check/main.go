// manifest-check reads one rendered overlay (kustomize build output) and fails on:
//
//  1. anything the official Kubernetes Go types refuse in strict mode: an unknown or duplicated
//     field, a wrong type, an unregistered kind (client-go's scheme, the API server's own decoder);
//  2. a pod template the API server's Pod Security Admission would reject at "restricted", latest
//     (k8s.io/pod-security-admission, the code the API server runs; the namespace enforces it);
//  3. this project's rules, which neither the schemas nor the linters know:
//     - every namespaced object carries the same, explicit namespace (a kustomize component's
//     objects only get one from the overlay that includes it);
//     - no pod mounts a service-account token, and every container has a read-only root
//     filesystem, CPU and memory requests and limits, and readiness and liveness probes
//     (Jobs excepted);
//     - a container with a preStop sleep has a grace period covering that sleep plus the
//     processes' own shutdown limit (common/src/shutdown.ts: 8 s);
//     - a Service exposing a port named "grpc" is headless, and every *_ADDR variable is a
//     dns:/// target, so gRPC's round_robin sees every pod.
//
// Usage: manifest-check rendered.yaml. Prints one line per finding; exits 1 if any.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// The services exit at the latest this long after SIGTERM (onShutdownSignal's hard limit).
const shutdownHardLimitSeconds = 8

// Cluster-scoped kinds that may appear in an overlay.
var clusterScoped = map[string]bool{"Namespace": true}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: manifest-check rendered.yaml")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()

	c := &checker{file: os.Args[1], namespaces: map[string]bool{}}
	if err := c.run(f); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", c.file, err)
		os.Exit(2)
	}
	if len(c.namespaces) > 1 {
		c.report("", "namespaced objects span several namespaces: %v", keys(c.namespaces))
	}
	if c.declaredNamespace != "" && len(c.namespaces) == 1 && !c.namespaces[c.declaredNamespace] {
		c.report("", "objects are in %v but the Namespace object is %q", keys(c.namespaces), c.declaredNamespace)
	}
	if c.findings > 0 {
		fmt.Printf("manifest-check: %s: %d finding(s)\n", c.file, c.findings)
		os.Exit(1)
	}
	fmt.Printf("manifest-check: %s: %d objects, clean\n", c.file, c.objects)
}

type checker struct {
	file              string
	objects           int
	findings          int
	namespaces        map[string]bool
	declaredNamespace string
	psa               policy.Evaluator
}

func (c *checker) report(object, format string, args ...any) {
	c.findings++
	if object != "" {
		fmt.Printf("%s: %s: %s\n", c.file, object, fmt.Sprintf(format, args...))
	} else {
		fmt.Printf("%s: %s\n", c.file, fmt.Sprintf(format, args...))
	}
}

func (c *checker) run(r io.Reader) error {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		return err
	}
	c.psa = evaluator

	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	docs := utilyaml.NewYAMLReader(bufio.NewReader(r))
	for index := 0; ; index++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		c.objects++
		obj, gvk, err := strict.Decode(doc, nil, nil)
		if err != nil {
			name := fmt.Sprintf("document %d", index+1)
			if gvk != nil {
				name += " (" + gvk.Kind + ")"
			}
			c.report(name, "%v", err)
			continue
		}
		c.check(obj)
	}
}

func (c *checker) check(obj runtime.Object) {
	accessor, err := metaOf(obj)
	if err != nil {
		c.report("", "%v", err)
		return
	}
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	name := kind + "/" + accessor.GetName()
	if clusterScoped[kind] {
		if kind == "Namespace" {
			c.declaredNamespace = accessor.GetName()
		}
	} else if accessor.GetNamespace() == "" {
		c.report(name, "has no namespace")
	} else {
		c.namespaces[accessor.GetNamespace()] = true
	}

	switch o := obj.(type) {
	case *appsv1.Deployment:
		c.checkPod(name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, true)
	case *appsv1.StatefulSet:
		c.checkPod(name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, true)
	case *batchv1.Job:
		c.checkPod(name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, false)
	case *corev1.Service:
		for _, port := range o.Spec.Ports {
			if port.Name == "grpc" && o.Spec.ClusterIP != corev1.ClusterIPNone {
				c.report(name, "serves gRPC but is not headless (clusterIP: None): clients would pin to one pod")
			}
		}
	}
}

func (c *checker) checkPod(name string, meta *metav1.ObjectMeta, spec *corev1.PodSpec, longRunning bool) {
	results := c.psa.EvaluatePod(psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}, meta, spec)
	for _, result := range results {
		if !result.Allowed {
			c.report(name, "Pod Security restricted: %s (%s)", result.ForbiddenReason, result.ForbiddenDetail)
		}
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		c.report(name, "mounts a service-account token (set automountServiceAccountToken: false)")
	}
	grace := int64(corev1.DefaultTerminationGracePeriodSeconds)
	if spec.TerminationGracePeriodSeconds != nil {
		grace = *spec.TerminationGracePeriodSeconds
	}
	for _, container := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		where := fmt.Sprintf("%s container %q", name, container.Name)
		sc := container.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			c.report(where, "root filesystem is writable (readOnlyRootFilesystem: true)")
		}
		for _, resource := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if _, ok := container.Resources.Requests[resource]; !ok {
				c.report(where, "no %s request", resource)
			}
			if _, ok := container.Resources.Limits[resource]; !ok {
				c.report(where, "no %s limit", resource)
			}
		}
		if longRunning && (container.ReadinessProbe == nil || container.LivenessProbe == nil) {
			c.report(where, "needs both a readiness and a liveness probe")
		}
		if lc := container.Lifecycle; lc != nil && lc.PreStop != nil && lc.PreStop.Sleep != nil {
			if need := lc.PreStop.Sleep.Seconds + shutdownHardLimitSeconds; grace < need {
				c.report(where, "terminationGracePeriodSeconds %d < preStop sleep %d s + shutdown limit %d s",
					grace, lc.PreStop.Sleep.Seconds, shutdownHardLimitSeconds)
			}
		}
		for _, env := range container.Env {
			if strings.HasSuffix(env.Name, "_ADDR") && env.ValueFrom == nil && !strings.HasPrefix(env.Value, "dns:///") {
				c.report(where, "%s=%q is not a dns:/// target: round_robin would see one address", env.Name, env.Value)
			}
		}
	}
}

func metaOf(obj runtime.Object) (metav1.Object, error) {
	accessor, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no object metadata", obj)
	}
	return accessor, nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
