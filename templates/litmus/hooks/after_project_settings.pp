# Publish only while enabled; the platforms come from the resolved settings, the project's included.
$s = $state['settings']
if $s['enabled'] {
  $state + { 'published' => $state['published'] + { 'litmus_platforms' => $s['platforms'] } }
} else {
  $state + { 'published' => {} }
}
