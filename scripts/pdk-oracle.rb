# frozen_string_literal: true

# Renders one file of pdk-templates (a V1 template repository) for a module, as PDK's V1 renderer does:
# config_defaults.yml deep-merged with the module's .sync.yml (knockout prefix '---'), then the file's ERB
# rendered with @configs = common + the file's section + the whole config. The oracle for the parity work
# (issue 17): what pdk-templates gives for settings the corpus of real modules lacks.
#
#   ruby scripts/pdk-oracle.rb TEMPLATES_DIR MODULE_DIR FILE [SYNC_YML]
#
# TEMPLATES_DIR is a checkout of pdk-templates at some ref (e.g. `git archive 3.5.1 | tar -x -C dir`);
# FILE is the output path ('.rubocop.yml', 'Gemfile', 'Rakefile', '.puppet-lint.rc'); SYNC_YML defaults to MODULE_DIR/.sync.yml.
# Needs the deep_merge gem (as PDK).
require 'erb'
require 'yaml'
require 'json'
require 'deep_merge'

templates, module_dir, file, sync_path = ARGV
sync_path ||= File.join(module_dir, '.sync.yml')

def read_config(path)
  return {} unless File.file?(path)

  YAML.safe_load(File.read(path), permitted_classes: [], permitted_symbols: [], aliases: true) || {}
end

config = read_config(File.join(templates, 'config_defaults.yml'))
sync = read_config(sync_path)
config.deep_merge!(sync, knockout_prefix: '---')
metadata_path = File.join(module_dir, 'metadata.json')
metadata = File.file?(metadata_path) ? JSON.parse(File.read(metadata_path)) : {}

# PDK's config_for: `common`, the module's metadata, the file's own key, then the whole configuration.
config_for = lambda do |path|
  file_config = config.fetch('common', {}).clone
  file_config['module_metadata'] = metadata
  file_config.merge!(config.fetch(path, {}))
  file_config.merge!(config)
end

# The template file's binding, as PDK's TemplateFile: @configs, @plan and `config_for` (which
# .puppet-lint.rc.erb calls for the Rakefile's settings).
class TemplateFile
  def initialize(configs, config_for)
    @configs = configs
    @plan = {}
    @config_for = config_for
  end

  def config_for(path)
    @config_for.call(path)
  end

  def render(path)
    renderer = ERB.new(File.read(path), trim_mode: '-')
    renderer.filename = path
    renderer.result(binding)
  end
end

$stdout.write(TemplateFile.new(config_for.call(file), config_for).render(File.join(templates, 'moduleroot', "#{file}.erb")))
