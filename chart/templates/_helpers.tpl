{{/*
Chart name, truncated to 63 characters (a label value).
*/}}
{{- define "appset-mapper.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name of the release's resources. The Service carries this name, so the Argo CD side calls
http://<fullname>.<namespace>.svc.<clusterDomain>:<port>. 63 characters at most (a DNS label).
*/}}
{{- define "appset-mapper.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "appset-mapper.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels on every resource. commonLabels cannot override the chart's own labels.
*/}}
{{- define "appset-mapper.labels" -}}
{{- $labels := dict
  "helm.sh/chart" (include "appset-mapper.chart" .)
  "app.kubernetes.io/name" (include "appset-mapper.name" .)
  "app.kubernetes.io/instance" .Release.Name
  "app.kubernetes.io/version" (.Values.image.tag | default .Chart.AppVersion | trunc 63 | trimSuffix "-")
  "app.kubernetes.io/managed-by" .Release.Service
  "app.kubernetes.io/part-of" "appset-mapper" }}
{{- toYaml (merge $labels (.Values.commonLabels | default dict)) }}
{{- end }}

{{/*
Labels of the server's Deployment, pods and Service: the common labels plus the selector labels.
*/}}
{{- define "appset-mapper.serverLabels" -}}
{{- toYaml (merge (include "appset-mapper.selectorLabels" . | fromYaml) (include "appset-mapper.labels" . | fromYaml)) }}
{{- end }}

{{/*
Selector of the server pods (Deployment, Service, PDB, NetworkPolicy). The component label keeps
the helm test pod out of the Service.
*/}}
{{- define "appset-mapper.selectorLabels" -}}
app.kubernetes.io/name: {{ include "appset-mapper.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end }}

{{/*
Labels of the helm test pod (admitted by the NetworkPolicy, not selected by the Service).
*/}}
{{- define "appset-mapper.testSelectorLabels" -}}
app.kubernetes.io/name: {{ include "appset-mapper.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: test
{{- end }}

{{- define "appset-mapper.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "appset-mapper.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "appset-mapper.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* ConfigMap holding the mappings from values. */}}
{{- define "appset-mapper.mappingsConfigMapName" -}}
{{- printf "%s-mappings" (include "appset-mapper.fullname" .) }}
{{- end }}

{{/*
The token Secret in the release namespace: token.existingSecret, or the generated one.
*/}}
{{- define "appset-mapper.tokenSecretName" -}}
{{- if .Values.token.existingSecret }}
{{- .Values.token.existingSecret }}
{{- else }}
{{- printf "%s-token" (include "appset-mapper.fullname" .) }}
{{- end }}
{{- end }}

{{/*
The token Secret in Argo CD's namespace that the plugin ConfigMaps reference as
$<name>:<key>. Generated token: a copy of the release's Secret with the same name (or the
release's Secret itself when the release lives in Argo CD's namespace). existingSecret:
argocd.tokenSecret.name, defaulting to the existing Secret's name.
*/}}
{{- define "appset-mapper.argocdTokenSecretName" -}}
{{- if .Values.argocd.tokenSecret.name }}
{{- .Values.argocd.tokenSecret.name }}
{{- else }}
{{- include "appset-mapper.tokenSecretName" . }}
{{- end }}
{{- end }}

{{- define "appset-mapper.argocdTokenSecretKey" -}}
{{- .Values.argocd.tokenSecret.key | default .Values.token.secretKey }}
{{- end }}

{{/* In-cluster base URL of the Service (no trailing slash). */}}
{{- define "appset-mapper.serviceUrl" -}}
{{- printf "http://%s.%s.svc.%s:%d" (include "appset-mapper.fullname" .) .Release.Namespace .Values.clusterDomain (int .Values.service.port) }}
{{- end }}

{{/*
The mapping document for one entry of .Values.mappings, as the text of the ConfigMap key
<name>.yaml. Strings are kept verbatim (comments, anchors and key order survive); structured
YAML is serialised with toYaml (keys sorted, comments lost). The mapping's own `name` field is the
route: it must equal the key, and is added when missing.
Call with (dict "name" $name "mapping" $mapping).
*/}}
{{- define "appset-mapper.mappingDocument" -}}
{{- $name := .name }}
{{- $mapping := .mapping }}
{{- if kindIs "string" $mapping }}
{{- $parsed := fromYaml $mapping }}
{{- if hasKey $parsed "Error" }}
{{- fail (printf "mappings.%s: the mapping is not a YAML map: %s" $name (get $parsed "Error")) }}
{{- end }}
{{- if hasKey $parsed "name" }}
{{- if ne (toString (get $parsed "name")) $name }}
{{- fail (printf "mappings.%s: the mapping's name field is %q; it must equal the key %q (the name is the route /mappings/<name>)" $name (toString (get $parsed "name")) $name) }}
{{- end }}
{{- $mapping }}
{{- else }}
{{- if hasPrefix "---" (trim $mapping) }}
{{- fail (printf "mappings.%s: add `name: %s` to the mapping (it cannot be added to a string that starts with ---)" $name $name) }}
{{- end }}
{{- printf "name: %s\n%s" $name $mapping }}
{{- end }}
{{- else if kindIs "map" $mapping }}
{{- if hasKey $mapping "name" }}
{{- if ne (toString (get $mapping "name")) $name }}
{{- fail (printf "mappings.%s: the mapping's name field is %q; it must equal the key %q (the name is the route /mappings/<name>)" $name (toString (get $mapping "name")) $name) }}
{{- end }}
{{- end }}
{{- toYaml (merge (dict "name" $name) $mapping) }}
{{- else }}
{{- fail (printf "mappings.%s: a mapping is a YAML string or a YAML map, not %s" $name (kindOf $mapping)) }}
{{- end }}
{{- end }}

{{/*
Route names the Argo CD side gets a plugin ConfigMap for: the keys of .Values.mappings plus the
`routes` of each extraMappingConfigMaps entry, sorted; a route declared twice fails.
*/}}
{{- define "appset-mapper.routes" -}}
{{- $routes := keys .Values.mappings }}
{{- range .Values.extraMappingConfigMaps }}
{{- range (.routes | default list) }}
{{- if has . $routes }}
{{- fail (printf "route %q is declared twice (mappings and extraMappingConfigMaps[].routes); mapping names must be unique" .) }}
{{- end }}
{{- $routes = append $routes . }}
{{- end }}
{{- end }}
{{- $routes | sortAlpha | toJson }}
{{- end }}

{{/* Name of the plugin ConfigMap in Argo CD's namespace for one route. */}}
{{- define "appset-mapper.pluginConfigMapName" -}}
{{- printf "%s%s" (.root.Values.argocd.configMapPrefix | default (printf "%s-" (include "appset-mapper.fullname" .root))) .route }}
{{- end }}

{{/*
A Kubernetes memory quantity in bytes, as a float, in every form Kubernetes takes: a number
("134217728", "1.5", ".5", "+1"), then a binary suffix (Ki Mi Gi Ti Pi Ei), a decimal one (n u m
"" k M G T P E: "1E" is 10^18, "500m" half a byte), or an exponent ("1e9", "1E9", "1.34217728e+08",
what Helm makes of an unquoted 134217728). Fails with one line naming the value for anything else
("1K", "1GB", "1e3Mi", "Gi").
*/}}
{{- define "appset-mapper.memoryBytes" -}}
{{- $quantity := include "appset-mapper.memoryText" . -}}
{{- $numberForm := "^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)" -}}
{{- if not (regexMatch (printf "%s([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$" $numberForm) $quantity) -}}
{{- fail (printf "resources.limits.memory %q is not a memory quantity: a number with an optional suffix (512Mi, 1Gi, 1e9, 134217728)" $quantity) -}}
{{- end -}}
{{- $number := regexFind $numberForm $quantity -}}
{{- $suffix := trimPrefix $number $quantity -}}
{{- if regexMatch "^[eE]." $suffix -}}
{{- /* An exponent: Go reads the whole; past float64's range it reads 0, and only a huge one is. */ -}}
{{- $bytes := float64 $quantity -}}
{{- if and (eq $bytes 0.0) (ne (float64 $number) 0.0) (not (contains "-" $suffix)) -}}
{{- if hasPrefix "-" $number }}-{{ end }}1e308
{{- else -}}
{{- $bytes -}}
{{- end -}}
{{- else -}}
{{- $units := dict "n" 1e-9 "u" 1e-6 "m" 0.001 "" 1.0 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "P" 1e15 "E" 1e18 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "Pi" 1125899906842624.0 "Ei" 1152921504606846976.0 -}}
{{- mulf (float64 $number) (get $units $suffix) -}}
{{- end -}}
{{- end -}}

{{/*
A memory limit as the user wrote it: text as is, a number Helm read from YAML (a float64, printed
1.34217728e+08) as its digits when it is whole.
*/}}
{{- define "appset-mapper.memoryText" -}}
{{- if and (kindIs "float64" .) (eq (floor .) .) (lt . 1e15) (gt . -1e15) -}}
{{- printf "%.0f" . -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}
