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
//     dns:/// target, so gRPC's round_robin sees every pod;
//     - a process that listens (GRPC_PORT, METRICS_PORT, PORT) sets the matching host
//     (GRPC_HOST, METRICS_HOST, HOST) to one other pods can reach: the default is loopback;
//     - mutual TLS: a gRPC server (GRPC_PORT) has TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE
//     (the process refuses to start without them); they name ca.crt, tls.crt and tls.key of a
//     Secret volume mounted whole (a subPath mount never sees a renewed certificate), and that
//     Secret is the secretName of a cert-manager Certificate in the same render whose URI SAN is
//     spiffe://pokerodds/<the Deployment's name>;
//     - with TLS, a gRPC probe targets HEALTH_PORT (the plaintext health-only port): the kubelet
//     cannot present a client certificate to the gRPC port;
//     - NetworkPolicies admit no address block and no peer that stands for everyone (a rule
//     without `from`, an empty namespaceSelector alone); every egress rule names its ports and
//     its destinations;
//     an egress to any address (0.0.0.0/0, ::/0) excepts the private, shared and link-local
//     ranges, so that "any address" never means other namespaces or the cluster's own;
//     - cert-manager objects, which client-go's scheme does not know (kubectl-validate checks them
//     against cert-manager's CRDs): only Issuer, ClusterIssuer and Certificate of
//     cert-manager.io/v1; every issuerRef names an issuer of the render, a CA issuer's Secret is
//     made by an isCA Certificate of the render, and a service certificate has a
//     spiffe://pokerodds/ URI, server and client auth, a renewBefore, and a new key on renewal.
//
// Usage: manifest-check rendered.yaml. Prints one line per finding; exits 1 if any.
package main

import (
	"bufio"
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
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
var clusterScoped = map[string]bool{"Namespace": true, "ClusterIssuer": true}

// cert-manager's API group, and the kinds of it an overlay may hold.
const certManagerGroup = "cert-manager.io"

var certManagerKinds = map[string]bool{"Issuer": true, "ClusterIssuer": true, "Certificate": true}

// The identities of the services' certificates (common/src/grpc/tls.ts).
const spiffePrefix = "spiffe://pokerodds/"

// What a cert-manager Secret holds, by the variable that names its file.
var tlsFileKeys = []struct{ env, key string }{
	{"TLS_CA_FILE", "ca.crt"},
	{"TLS_CERT_FILE", "tls.crt"},
	{"TLS_KEY_FILE", "tls.key"},
}

// The cert-manager fields these rules read; kubectl-validate checks the objects against the CRDs.
type certManagerObject struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        metav1.ObjectMeta `json:"metadata"`
	Spec            struct {
		// Certificate
		SecretName  string   `json:"secretName"`
		IsCA        bool     `json:"isCA"`
		URIs        []string `json:"uris"`
		Usages      []string `json:"usages"`
		RenewBefore string   `json:"renewBefore"`
		PrivateKey  *struct {
			RotationPolicy string `json:"rotationPolicy"`
		} `json:"privateKey"`
		IssuerRef struct {
			Name  string `json:"name"`
			Kind  string `json:"kind"`
			Group string `json:"group"`
		} `json:"issuerRef"`
		// Issuer, ClusterIssuer
		CA *struct {
			SecretName string `json:"secretName"`
		} `json:"ca"`
	} `json:"spec"`
}

// A Deployment's (or StatefulSet's) mutual-TLS Secret, checked once the whole render is read.
type tlsSecretUse struct {
	where, secret, identity string
}

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
	c.checkCertificates()
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
	// cert-manager objects, and the TLS Secrets pod templates mount, for checkCertificates.
	certificates  []*certManagerObject
	issuers       map[string]*certManagerObject // "Issuer/name", "ClusterIssuer/name"
	tlsSecretUses []tlsSecretUse
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
		if handled, err := c.certManager(doc); handled || err != nil {
			if err != nil {
				c.report(fmt.Sprintf("document %d", index+1), "%v", err)
			}
			continue
		}
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

// certManager takes the objects of cert-manager's API group, which client-go's scheme does not
// know: it reports whether doc was one. Their schema is kubectl-validate's (with the CRDs); here
// only the fields the project's rules need are read.
func (c *checker) certManager(doc []byte) (bool, error) {
	data, err := utilyaml.ToJSON(doc)
	if err != nil {
		return false, nil // the strict decoder reports it
	}
	var meta metav1.TypeMeta
	if err := stdjson.Unmarshal(data, &meta); err != nil {
		return false, nil
	}
	gv, err := apiGroup(meta.APIVersion)
	if err != nil || gv != certManagerGroup {
		return false, nil
	}
	name := meta.Kind
	if meta.APIVersion != certManagerGroup+"/v1" || !certManagerKinds[meta.Kind] {
		return true, fmt.Errorf("%s %s: only Issuer, ClusterIssuer and Certificate of %s/v1 are expected",
			meta.APIVersion, meta.Kind, certManagerGroup)
	}
	o := &certManagerObject{}
	if err := stdjson.Unmarshal(data, o); err != nil {
		return true, fmt.Errorf("%s: %v", name, err)
	}
	c.namespaced(meta.Kind, &o.Metadata)
	if meta.Kind == "Certificate" {
		c.certificates = append(c.certificates, o)
	} else {
		if c.issuers == nil {
			c.issuers = map[string]*certManagerObject{}
		}
		c.issuers[meta.Kind+"/"+o.Metadata.Name] = o
	}
	return true, nil
}

// apiGroup is the group of an apiVersion ("" for the core group).
func apiGroup(apiVersion string) (string, error) {
	if apiVersion == "" {
		return "", errors.New("no apiVersion")
	}
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return "", nil
	}
	return group, nil
}

// checkCertificates runs once every object is read: issuers and Secrets may come in any order.
func (c *checker) checkCertificates() {
	bySecret := map[string]*certManagerObject{}
	for _, cert := range c.certificates {
		name := "Certificate/" + cert.Metadata.Name
		if other, dup := bySecret[cert.Spec.SecretName]; dup {
			c.report(name, "secretName %q is also Certificate/%s's: they would overwrite each other",
				cert.Spec.SecretName, other.Metadata.Name)
		}
		bySecret[cert.Spec.SecretName] = cert
		kind := cert.Spec.IssuerRef.Kind
		if kind == "" {
			kind = "Issuer"
		}
		if g := cert.Spec.IssuerRef.Group; g != "" && g != certManagerGroup {
			c.report(name, "issuerRef group %q: only cert-manager's own issuers are used here", g)
		} else if c.issuers[kind+"/"+cert.Spec.IssuerRef.Name] == nil {
			c.report(name, "issuerRef %s/%s is not in the render", kind, cert.Spec.IssuerRef.Name)
		}
		if cert.Spec.IsCA {
			continue
		}
		var identities []string
		for _, uri := range cert.Spec.URIs {
			if strings.HasPrefix(uri, spiffePrefix) {
				identities = append(identities, uri)
			}
		}
		if len(identities) != 1 {
			c.report(name, "a service certificate carries exactly one %s<service> URI, has %v", spiffePrefix, cert.Spec.URIs)
		}
		for _, usage := range []string{"server auth", "client auth"} {
			if !slices.Contains(cert.Spec.Usages, usage) {
				c.report(name, "usages lack %q (mutual TLS: every process is a server and a client)", usage)
			}
		}
		if cert.Spec.RenewBefore == "" {
			c.report(name, "no renewBefore: renew well before expiry, not at cert-manager's default")
		}
		if cert.Spec.PrivateKey == nil || cert.Spec.PrivateKey.RotationPolicy != "Always" {
			c.report(name, "privateKey.rotationPolicy must be Always: a new key with every certificate")
		}
	}
	for key, issuer := range c.issuers {
		if issuer.Spec.CA == nil {
			continue
		}
		if cert := bySecret[issuer.Spec.CA.SecretName]; cert == nil || !cert.Spec.IsCA {
			c.report(key, "CA Secret %q is not made by an isCA Certificate of the render", issuer.Spec.CA.SecretName)
		}
	}
	for _, use := range c.tlsSecretUses {
		cert := bySecret[use.secret]
		switch {
		case cert == nil:
			c.report(use.where, "TLS Secret %q is made by no Certificate of the render", use.secret)
		case cert.Spec.IsCA:
			c.report(use.where, "TLS Secret %q is the CA's, not a service certificate", use.secret)
		case !slices.Contains(cert.Spec.URIs, spiffePrefix+use.identity):
			c.report(use.where, "TLS Secret %q (Certificate/%s) does not name %s%s: its peers would refuse it",
				use.secret, cert.Metadata.Name, spiffePrefix, use.identity)
		}
	}
}

// namespaced records an object's namespace (or the Namespace object's name).
func (c *checker) namespaced(kind string, accessor metav1.Object) {
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
}

func (c *checker) check(obj runtime.Object) {
	accessor, err := metaOf(obj)
	if err != nil {
		c.report("", "%v", err)
		return
	}
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	name := kind + "/" + accessor.GetName()
	c.namespaced(kind, accessor)

	switch o := obj.(type) {
	case *appsv1.Deployment:
		c.checkPod(name, o.Name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, true)
	case *appsv1.StatefulSet:
		c.checkPod(name, o.Name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, true)
	case *batchv1.Job:
		c.checkPod(name, o.Name, &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, false)
	case *networkingv1.NetworkPolicy:
		c.checkNetworkPolicy(name, &o.Spec)
	case *corev1.Service:
		for _, port := range o.Spec.Ports {
			if port.Name == "grpc" && o.Spec.ClusterIP != corev1.ClusterIPNone {
				c.report(name, "serves gRPC but is not headless (clusterIP: None): clients would pin to one pod")
			}
		}
	}
}

// checkPod checks a pod template; identity is the workload's name, which its certificate names.
func (c *checker) checkPod(name, identity string, meta *metav1.ObjectMeta, spec *corev1.PodSpec, longRunning bool) {
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
		c.checkListenHosts(where, container)
		c.checkTLS(where, identity, spec, container)
	}
}

// literalEnv is the container's variables with a literal value (valueFrom ones map to "").
func literalEnv(container corev1.Container) map[string]*string {
	env := map[string]*string{}
	for i := range container.Env {
		value := container.Env[i].Value
		if container.Env[i].ValueFrom != nil {
			env[container.Env[i].Name] = nil
		} else {
			env[container.Env[i].Name] = &value
		}
	}
	return env
}

// The processes listen on 127.0.0.1 unless told otherwise: unreachable from Services and probes.
func (c *checker) checkListenHosts(where string, container corev1.Container) {
	env := literalEnv(container)
	for _, pair := range [][2]string{{"GRPC_PORT", "GRPC_HOST"}, {"METRICS_PORT", "METRICS_HOST"}, {"PORT", "HOST"}} {
		if _, listens := env[pair[0]]; !listens {
			continue
		}
		host, set := env[pair[1]]
		switch {
		case !set:
			c.report(where, "%s without %s: the process would listen on 127.0.0.1 only", pair[0], pair[1])
		case host != nil && isLoopback(*host):
			c.report(where, "%s=%q: unreachable from outside the pod", pair[1], *host)
		}
	}
}

func isLoopback(host string) bool {
	return host == "localhost" || host == "::1" || host == "[::1]" || strings.HasPrefix(host, "127.")
}

// checkTLS: the mutual-TLS files come from a whole-directory Secret mount of a cert-manager
// Certificate's Secret (checked at the end), and gRPC probes use the plaintext health port.
func (c *checker) checkTLS(where, identity string, spec *corev1.PodSpec, container corev1.Container) {
	env := literalEnv(container)
	set := 0
	for _, file := range tlsFileKeys {
		if _, ok := env[file.env]; ok {
			set++
		}
	}
	if set == 0 {
		if _, grpcServer := env["GRPC_PORT"]; grpcServer {
			c.report(where, "a gRPC server (GRPC_PORT) without TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE refuses to start")
		}
		return
	}
	if set != len(tlsFileKeys) {
		c.report(where, "TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE go together")
		return
	}
	secrets := map[string]bool{}
	for _, file := range tlsFileKeys {
		value := env[file.env]
		if value == nil {
			c.report(where, "%s: a literal path into the mounted Secret, not valueFrom", file.env)
			continue
		}
		secret, key, problem := secretFileOf(spec, container, *value)
		if problem != "" {
			c.report(where, "%s=%q: %s", file.env, *value, problem)
			continue
		}
		if key != file.key {
			c.report(where, "%s=%q is the Secret's key %q; cert-manager keeps it in %q", file.env, *value, key, file.key)
		}
		secrets[secret] = true
	}
	if len(secrets) > 1 {
		c.report(where, "the TLS files come from several Secrets %v: the CA, certificate and key must match", keys(secrets))
	}
	for secret := range secrets {
		c.tlsSecretUses = append(c.tlsSecretUses, tlsSecretUse{where: where, secret: secret, identity: identity})
	}

	// The kubelet's gRPC probe speaks plaintext: with TLS it must ask the health-only port.
	healthPort := ""
	if value := env["HEALTH_PORT"]; value != nil {
		healthPort = *value
	}
	for _, named := range []struct {
		name  string
		probe *corev1.Probe
	}{{"readiness", container.ReadinessProbe}, {"liveness", container.LivenessProbe}, {"startup", container.StartupProbe}} {
		probeName, probe := named.name, named.probe
		if probe == nil || probe.GRPC == nil {
			continue
		}
		if port := fmt.Sprint(probe.GRPC.Port); port != healthPort {
			c.report(where, "%s probe: gRPC on port %s, but with mutual TLS only HEALTH_PORT (%q) answers the kubelet",
				probeName, port, healthPort)
		}
	}
}

// secretFileOf finds the Secret volume a file lies in, and its key there. problem says why not.
func secretFileOf(spec *corev1.PodSpec, container corev1.Container, file string) (secret, key, problem string) {
	file = path.Clean(file)
	// The deepest mount holding the file wins, as in the container's filesystem.
	mounts := append([]corev1.VolumeMount{}, container.VolumeMounts...)
	sort.SliceStable(mounts, func(i, j int) bool { return len(mounts[i].MountPath) > len(mounts[j].MountPath) })
	for _, mount := range mounts {
		dir := path.Clean(mount.MountPath)
		if !strings.HasPrefix(file, dir+"/") {
			continue
		}
		if mount.SubPath != "" || mount.SubPathExpr != "" {
			return "", "", "a subPath mount is never updated: a renewed certificate would not be seen"
		}
		for _, volume := range spec.Volumes {
			if volume.Name != mount.Name {
				continue
			}
			if volume.Secret == nil {
				return "", "", fmt.Sprintf("volume %q is not a Secret volume", volume.Name)
			}
			if volume.Secret.Optional != nil && *volume.Secret.Optional {
				return "", "", fmt.Sprintf("Secret volume %q is optional: the pod would start without its certificate", volume.Name)
			}
			relative := strings.TrimPrefix(file, dir+"/")
			if len(volume.Secret.Items) == 0 {
				return volume.Secret.SecretName, relative, ""
			}
			for _, item := range volume.Secret.Items {
				if path.Clean(item.Path) == relative {
					return volume.Secret.SecretName, item.Key, ""
				}
			}
			return "", "", fmt.Sprintf("no item of Secret volume %q is mounted as %q", volume.Name, relative)
		}
		return "", "", fmt.Sprintf("volume %q is not declared", mount.Name)
	}
	return "", "", "not in a mounted volume"
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

// The ranges an egress to any address must except: private (RFC 1918, RFC 4193), shared (RFC
// 6598) and link-local, where the cluster's own and other namespaces' addresses are.
var privateRanges = map[string][]string{
	"0.0.0.0/0": {"10.0.0.0/8", "100.64.0.0/10", "169.254.0.0/16", "172.16.0.0/12", "192.168.0.0/16"},
	"::/0":      {"fc00::/7", "fe80::/10"},
}

func (c *checker) checkNetworkPolicy(name string, spec *networkingv1.NetworkPolicySpec) {
	for i, rule := range spec.Ingress {
		where := fmt.Sprintf("ingress rule %d", i+1)
		if len(rule.From) == 0 {
			c.report(name, "%s admits every source (no from)", where)
		}
		for _, peer := range rule.From {
			if peer.IPBlock != nil {
				c.report(name, "%s admits an address block (%s): name the peers by namespace and pod", where, peer.IPBlock.CIDR)
			}
			if peer.PodSelector == nil && peer.NamespaceSelector != nil && isEmpty(peer.NamespaceSelector) {
				c.report(name, "%s admits every namespace", where)
			}
		}
	}
	for i, rule := range spec.Egress {
		where := fmt.Sprintf("egress rule %d", i+1)
		if len(rule.Ports) == 0 {
			c.report(name, "%s names no port", where)
		}
		if len(rule.To) == 0 {
			c.report(name, "%s allows every destination (no to)", where)
		}
		for _, peer := range rule.To {
			if peer.IPBlock == nil {
				continue
			}
			for _, required := range privateRanges[peer.IPBlock.CIDR] {
				if !slices.Contains(peer.IPBlock.Except, required) {
					c.report(name, "%s allows %s without excepting %s", where, peer.IPBlock.CIDR, required)
				}
			}
		}
	}
}

func isEmpty(selector *metav1.LabelSelector) bool {
	return len(selector.MatchLabels) == 0 && len(selector.MatchExpressions) == 0
}
