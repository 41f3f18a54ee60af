{{- define "isolato.labels" -}}
app.kubernetes.io/name: isolato
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}
{{- define "isolato.selector" -}}
app.kubernetes.io/name: isolato
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
