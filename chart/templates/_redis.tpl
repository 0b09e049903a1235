{{/*
Redis: whether replicas share through it ("true" or empty), its URL, and the Secrets the server
mounts. redis.enabled is auto (more than one replica), true or false.
*/}}
{{- define "appset-mapper.redisEnabled" -}}
{{- $enabled := .Values.redis.enabled -}}
{{- if eq (toString $enabled) "auto" -}}
{{- if or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1) }}true{{ end -}}
{{- else if $enabled -}}
true
{{- end -}}
{{- end }}

{{/* The chart runs its own Redis: enabled and no external URL. */}}
{{- define "appset-mapper.redisOwn" -}}
{{- if and (include "appset-mapper.redisEnabled" .) (not .Values.redis.url) }}true{{ end -}}
{{- end }}

{{- define "appset-mapper.redisName" -}}
{{- printf "%s-redis" (include "appset-mapper.fullname" . | trunc 57 | trimSuffix "-") }}
{{- end }}

{{- define "appset-mapper.redisSelectorLabels" -}}
app.kubernetes.io/name: {{ include "appset-mapper.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: redis
{{- end }}

{{- define "appset-mapper.redisLabels" -}}
{{- toYaml (merge (include "appset-mapper.redisSelectorLabels" . | fromYaml) (include "appset-mapper.labels" . | fromYaml)) }}
{{- end }}

{{- define "appset-mapper.redisUrl" -}}
{{- if .Values.redis.url }}
{{- .Values.redis.url }}
{{- else }}
{{- printf "redis://%s.%s.svc.%s:6379" (include "appset-mapper.redisName" .) .Release.Namespace .Values.clusterDomain }}
{{- end }}
{{- end }}

{{/* The Secret holding the Redis password, or empty when there is none (external, no auth). */}}
{{- define "appset-mapper.redisAuthSecret" -}}
{{- if .Values.redis.auth.existingSecret }}
{{- .Values.redis.auth.existingSecret }}
{{- else if include "appset-mapper.redisOwn" . }}
{{- printf "%s-auth" (include "appset-mapper.redisName" .) }}
{{- end }}
{{- end }}

{{- define "appset-mapper.redisKeysSecret" -}}
{{- if .Values.redis.integrity.existingSecret }}
{{- .Values.redis.integrity.existingSecret }}
{{- else }}
{{- printf "%s-integrity" (include "appset-mapper.redisName" .) }}
{{- end }}
{{- end }}

{{/*
The key prefix: redis.keyPrefix, or by default one naming the release and its namespace, so that
two releases on one Redis never share keys (they would read each other's baselines, sealed with
other keys, as refusals). Over 64 characters (the server's limit): a digest of them instead.
*/}}
{{- define "appset-mapper.redisKeyPrefix" -}}
{{- if .Values.redis.keyPrefix -}}
{{- .Values.redis.keyPrefix -}}
{{- else -}}
{{- $named := printf "appset-mapper:%s.%s:" .Release.Namespace .Release.Name -}}
{{- if le (len $named) 64 -}}
{{- $named -}}
{{- else -}}
{{- printf "appset-mapper:%s:" (printf "%s.%s" .Release.Namespace .Release.Name | sha256sum | trunc 16) -}}
{{- end -}}
{{- end -}}
{{- end -}}
